/** DJEN items → PublicationRecord: the real sample, OAB spellings, dates, cancellations, malformed items. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../../platform/ports/source-error.ts';
import { normalizeOab, toCadernoMetadata, toPublication, toPublications } from './parse.ts';
import { oabSpellings, searchFilters } from './query.ts';
import { fakeItem, realSample } from './testing/fake-djen.ts';

function isMalformed(err: unknown): boolean {
  assert.ok(err instanceof SourceError, String(err));
  assert.equal(err.source, 'djen');
  assert.equal(err.failure, 'malformed', err.message);
  return true;
}

test('the real sample: every item, addressee and lawyer kept, every field mapped', () => {
  const sample = realSample();
  const records = toPublications(sample, 'sample');
  assert.equal(records.length, 3);
  assert.deepEqual(
    records.map((r) => r.id),
    ['731069288', '729551261', '726236707'],
  );
  assert.deepEqual(
    records.map((r) => r.advogados.length),
    [3, 4, 3],
  );
  assert.deepEqual(
    records.map((r) => r.destinatarios.length),
    [1, 1, 1],
  );
  const [first, second] = records;
  assert.deepEqual(
    { ...first, texto: first.texto.slice(0, 15), raw: undefined },
    {
      id: '731069288',
      hash: '2nqe4VJbRaDSOPBIzTn1d2bYKk7AgO',
      numeroCnj: '50040730520254047113',
      tribunal: 'TRF4',
      dataDisponibilizacao: '2026-09-18',
      tipoComunicacao: 'Intimação',
      tipoDocumento: 'Ato ordinatório',
      orgao: { id: '43803', nome: 'SECRETARIA DE RECURSOS AOS TRIBUNAIS SUPERIORES' },
      classe: { codigo: '198', nome: 'APELAçãO CíVEL' },
      meio: 'D',
      numeroComunicacao: '19444',
      texto: '<!DOCTYPE html ',
      link: sample.items[0].link,
      ativo: true,
      cancelamento: null,
      destinatarios: [{ nome: 'PARTE 4', polo: 'A' }],
      advogados: [
        { nome: 'ADVOGADA EXEMPLO UM', oab: { uf: 'RS', numero: '900000' } },
        { nome: 'ADVOGADO EXEMPLO DOIS', oab: { uf: 'RS', numero: '901111' } },
        { nome: 'ADVOGADO EXEMPLO TRES', oab: { uf: 'RS', numero: '902222' } },
      ],
      raw: undefined,
    },
  );
  assert.equal(first.texto, sample.items[0].texto);
  assert.equal(second.link, null);
  assert.equal(second.numeroCnj, '50008987920268210090');
  assert.deepEqual(second.advogados[2], { nome: 'ADVOGADO EXEMPLO CINCO', oab: { uf: 'CE', numero: '903333' } });
  for (const [i, r] of records.entries()) assert.deepEqual(r.raw, sample.items[i], 'raw is the item as received');
  assert.equal(records[0].raw, sample.items[0]);
});

test('OAB numbers in every spelling courts print become one canonical registration', () => {
  for (const numero of ['RS057689', '057689', '57.689', '57689', 57689, 'OAB/RS 57.689', '57689/RS', ' 57689 ']) {
    assert.deepEqual(normalizeOab(numero, 'RS'), { uf: 'RS', numero: '57689' }, String(numero));
  }
  assert.deepEqual(normalizeOab('57689A', 'rs'), { uf: 'RS', numero: '57689A' });
  assert.deepEqual(normalizeOab('57.689-A', 'RS'), { uf: 'RS', numero: '57689A' });
  assert.deepEqual(normalizeOab('SP123456', 'RS'), { uf: 'SP', numero: '123456' }, "the number's own UF wins");
  assert.equal(normalizeOab('57689', null), null, 'no UF anywhere: unreadable');
  assert.equal(normalizeOab('', 'RS'), null);
  assert.equal(normalizeOab(null, 'RS'), null);
  assert.equal(normalizeOab('not an oab', 'RS'), null);
});

test('the query asks every OAB spelling: plain, dotted from 4 digits, with the suffix letter', () => {
  assert.deepEqual(oabSpellings('57689'), ['57689', '57.689']);
  assert.deepEqual(oabSpellings('057689A'), ['57689', '57.689', '57689A']);
  assert.deepEqual(oabSpellings('1234567'), ['1234567', '1.234.567']);
  assert.deepEqual(oabSpellings('1234'), ['1234', '1.234']);
  assert.deepEqual(oabSpellings('123'), ['123']);
  const filters = searchFilters({ oab: { uf: 'rs', numero: '57689' }, desde: '2026-09-01', ate: '2026-09-18', meio: 'D', tribunal: 'trf4' });
  assert.deepEqual(
    filters.map((f) => Object.fromEntries(f)),
    ['57689', '57.689'].map((numeroOab) => ({
      siglaTribunal: 'TRF4',
      dataDisponibilizacaoInicio: '2026-09-01',
      dataDisponibilizacaoFim: '2026-09-18',
      meio: 'D',
      numeroOab,
      ufOab: 'RS',
    })),
  );
  assert.deepEqual(
    Object.fromEntries(searchFilters({ numeroCnj: '5004073-05.2025.4.04.7113', nomeParte: 'Maria', nomeAdvogado: 'José', texto: 'penhora' })[0]),
    {
      numeroProcesso: '50040730520254047113',
      nomeParte: 'Maria',
      nomeAdvogado: 'José',
      texto: 'penhora',
    },
  );
  assert.throws(() => searchFilters({ desde: '2026-09-01' }), RangeError, 'DJEN refuses a query without a main filter');
  assert.throws(() => searchFilters({ tribunal: 'TJSP', desde: '01/09/2026' }), RangeError);
  assert.throws(() => searchFilters({ numeroCnj: '123' }), RangeError);
});

test('dates: data_disponibilizacao, else datadisponibilizacao (dd/mm/yyyy)', () => {
  assert.equal(toPublication(fakeItem(1, '2026-09-18')).dataDisponibilizacao, '2026-09-18');
  const onlyBr = fakeItem(2, '2026-09-18', '1', { data_disponibilizacao: undefined });
  assert.equal(toPublication(onlyBr).dataDisponibilizacao, '2026-09-18');
  const badIso = fakeItem(3, '2026-09-18', '1', { data_disponibilizacao: 'soon', datadisponibilizacao: '17/09/2026' });
  assert.equal(toPublication(badIso).dataDisponibilizacao, '2026-09-17');
});

test('numbers become strings; a numero_processo that is not a valid CNJ number gives numeroCnj null', () => {
  const r = toPublication(
    fakeItem(7, '2026-09-18', '1', { codigoClasse: 198, numeroComunicacao: 42, idOrgao: 9, id: '0007', numero_processo: '50040730520254047114' }),
  );
  assert.equal(r.id, '7');
  assert.deepEqual(r.classe, { codigo: '198', nome: 'INTERDIçãO' });
  assert.equal(r.numeroComunicacao, '42');
  assert.equal(r.orgao?.id, '9');
  assert.equal(r.numeroCnj, null, 'wrong check digits');
  assert.equal(toPublication(fakeItem(8, '2026-09-18', '1', { numero_processo: '0001' })).numeroCnj, null);
  const masked = toPublication(fakeItem(9, '2026-09-18', '1', { numero_processo: null, numeroprocessocommascara: '5004073-05.2025.4.04.7113' }));
  assert.equal(masked.numeroCnj, '50040730520254047113');
});

test('cancelled: ativo false or a data_cancelamento', () => {
  const off = toPublication(fakeItem(1, '2026-09-18', '1', { ativo: false }));
  assert.equal(off.ativo, false);
  assert.equal(off.cancelamento, null);
  const cancelled = toPublication(fakeItem(2, '2026-09-18', '1', { ativo: true, data_cancelamento: '2026-09-19', motivo_cancelamento: 'Erro material' }));
  assert.equal(cancelled.ativo, false);
  assert.deepEqual(cancelled.cancelamento, { data: '2026-09-19', motivo: 'Erro material' });
  assert.equal(toPublication(fakeItem(3)).ativo, true);
});

test('an item without id, siglaTribunal or date is malformed, never dropped', () => {
  assert.throws(() => toPublications({ items: [fakeItem(1), fakeItem(2, '2026-09-18', '1', { id: undefined })] }, 'page'), isMalformed);
  assert.throws(() => toPublication(fakeItem(1, '2026-09-18', '1', { id: 'abc' })), isMalformed);
  assert.throws(() => toPublication(fakeItem(1, '2026-09-18', '1', { siglaTribunal: '' })), isMalformed);
  assert.throws(() => toPublication(fakeItem(1, '2026-09-18', '1', { data_disponibilizacao: null, datadisponibilizacao: null })), isMalformed);
  assert.throws(() => toPublication(fakeItem(1, '2026-09-18', '1', { destinatarios: 'PARTE' })), isMalformed);
  assert.throws(() => toPublication('item'), isMalformed);
  assert.throws(() => toPublications({ count: 1 }, 'page'), isMalformed);
  assert.throws(() => toPublications([], 'page'), isMalformed);
});

test('caderno metadata: counts as numbers or numeric strings; no status is malformed', () => {
  const meta = toCadernoMetadata(
    {
      status: 'Processado',
      sigla_tribunal: 'TJSP',
      data: '2025-10-29',
      meio: 'D',
      total_comunicacoes: 219993,
      numero_paginas: '220',
      tamanho_bytes: '118022107',
      url: 'https://x/y.zip',
    },
    'TJSP',
    '2025-10-29',
    'D',
  );
  assert.deepEqual(meta, { tribunal: 'TJSP', data: '2025-10-29', meio: 'D', status: 'Processado', total: 219993, paginas: 220, url: 'https://x/y.zip' });
  assert.deepEqual(toCadernoMetadata({ status: 'Sem comunicações' }, 'TJAC', '2025-10-29', 'E'), {
    tribunal: 'TJAC',
    data: '2025-10-29',
    meio: 'E',
    status: 'Sem comunicações',
    total: 0,
    paginas: 0,
    url: null,
  });
  assert.throws(() => toCadernoMetadata({ total_comunicacoes: 1 }, 'TJSP', '2025-10-29', 'D'), isMalformed);
  assert.throws(() => toCadernoMetadata({ status: 'Processado', total_comunicacoes: 'many' }, 'TJSP', '2025-10-29', 'D'), isMalformed);
});
