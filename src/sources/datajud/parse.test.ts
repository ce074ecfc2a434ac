/** DataJud hits → CaseRecords: the real samples lose no movement; every quirk of datajud.md §7–§8. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toSearchResult, type EsHit } from './client.ts';
import { movementKey, normalizeDataJudDate, parseHits } from './parse.ts';

function fixture(name: string): { json: any; hits: EsHit[] } {
  const json = JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
  return { json, hits: toSearchResult('fixture', json).hits };
}

/** Canonical JSON (sorted keys) so "exact duplicate" does not depend on key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** Raw movements minus exact duplicates, per document: what the parser must keep. */
function expectedMovements(json: any): { raw: number; duplicates: number } {
  let raw = 0;
  let duplicates = 0;
  for (const hit of json.hits.hits) {
    const list: unknown[] = hit._source.movimentos ?? [];
    raw += list.length;
    duplicates += list.length - new Set(list.map(canonical)).size;
  }
  return { raw, duplicates };
}

function parsedMovements(cases: ReturnType<typeof parseHits>): number {
  return cases.reduce((n, c) => n + c.instancias.reduce((m, i) => m + i.movimentos.length, 0), 0);
}

test('the real TRF4 sample parses into one case with G1 then G2 and all 17 movements', () => {
  const { json, hits } = fixture('datajud-sample-response.json');
  const { raw, duplicates } = expectedMovements(json);
  assert.equal(raw, 17);
  assert.equal(duplicates, 0, 'the trimmed sample keeps no exact duplicate (datajud.md §12)');
  const cases = parseHits(hits);
  assert.equal(cases.length, 1);
  const [c] = cases;
  assert.equal(c.numeroCnj, '50192100820214047100');
  assert.equal(c.tribunal, 'TRF4');
  assert.deepEqual(
    c.instancias.map((i) => i.grau),
    ['G1', 'G2'],
    'G1 first although the response lists G2 first',
  );
  assert.equal(parsedMovements(cases), raw - duplicates);
  const [g1, g2] = c.instancias;
  assert.equal(g1.movimentos.length, 11);
  assert.equal(g2.movimentos.length, 6);
  assert.equal(g1.upstreamId, 'TRF4_G1_50192100820214047100');
  // YYYYMMDDHHmmss → ISO UTC (§7)
  assert.equal(g1.dataAjuizamento, '2021-04-21T18:59:53.000Z');
  assert.equal(g2.dataAjuizamento, '2025-07-08T16:01:17.000Z');
  // microseconds truncated; atualizadoEm is the latest instance
  assert.equal(g2.dataHoraUltimaAtualizacao, '2026-09-07T14:52:04.214Z');
  assert.equal(c.atualizadoEm, '2026-09-07T14:52:04.214Z');
  // numbers → strings
  assert.deepEqual(g1.classe, { codigo: '7', nome: 'Procedimento Comum Cível' });
  assert.deepEqual(g1.orgaoJulgador, { codigo: '12674', nome: '20ª Vara Federal de Porto Alegre', codigoMunicipioIBGE: '4314902' });
  assert.deepEqual(g1.sistema, { codigo: '4', nome: 'EPROC' });
  assert.deepEqual(g2.sistema, { codigo: '4', nome: 'Projudi' });
  assert.deepEqual(
    g1.assuntos.map((a) => a.codigo),
    ['6118', '6182'],
  );
  // movements newest first, near duplicates (1 s apart, §8.2) both kept
  for (const inst of c.instancias) {
    const dates = inst.movimentos.map((m) => m.dataHora);
    assert.deepEqual(dates, [...dates].sort().reverse());
  }
  assert.equal(g1.movimentos.filter((m) => m.codigo === '12265').length, 2);
  // órgão of a movement (codigo as string in TRF4 data) and complements as strings
  const distribuicao = g2.movimentos.find((m) => m.codigo === '26')!;
  assert.deepEqual(distribuicao.orgaoJulgador, { codigo: '44542', nome: 'GAB. 54 (Des. Federal VÂNIA HACK DE ALMEIDA)' });
  assert.deepEqual(distribuicao.complementos, [{ codigo: '2', nome: 'sorteio', valor: '2', descricao: 'tipo_de_distribuicao_redistribuicao' }]);
  assert.equal(distribuicao.grau, 'G2');
  assert.match(distribuicao.key, /^[0-9a-f]{40}$/);
  // raw keeps each _source exactly as received
  assert.equal(c.raw.length, 2);
  assert.deepEqual(
    c.raw,
    json.hits.hits.map((h: any) => h._source),
  );
});

test('the official wiki example 1 (TRF1 JE, ISO dates) parses with both movements', () => {
  const { json, hits } = fixture('datajud-wiki-exemplo1-response.json');
  const { raw, duplicates } = expectedMovements(json);
  const cases = parseHits(hits);
  assert.equal(cases.length, 1);
  assert.equal(raw, 2);
  assert.equal(parsedMovements(cases), raw - duplicates);
  const [i] = cases[0].instancias;
  assert.equal(i.grau, 'JE');
  assert.equal(i.dataAjuizamento, '2018-10-29T00:00:00.000Z');
  assert.equal(i.orgaoJulgador?.codigoMunicipioIBGE, '5128', 'kept as sent, even when not a 7-digit IBGE code (§7)');
  assert.deepEqual(
    i.movimentos.map((m) => m.codigo),
    ['14732', '26'],
  );
  assert.equal(i.movimentos[0].orgaoJulgador, null);
});

/** A synthetic response with the quirks the real samples lack (wiki exemplo 2, glossary spelling). */
function quirkyHits(): EsHit[] {
  const numero = '07158804220218070015';
  const dup = {
    codigo: '11010',
    nome: 'Mero expediente',
    dataHora: '2022-03-22T08:29:49.000Z',
    complementosTabelados: [{ codigo: 5, valor: '7', nome: 'x', descricao: 'y' }],
  };
  const source = (grau: string, extra: Record<string, unknown>) => ({ numeroProcesso: numero, tribunal: 'TJDFT', grau, ...extra });
  const hit = (id: string, s: unknown): EsHit => ({ _index: 'api_publica_tjdft', _id: id, _source: s, sort: null });
  return [
    hit('TR-doc', source('TR', {})),
    hit('G2-doc', source('G2', { dataHoraUltimaAtualizacao: '2023-01-02T03:04:05.123456789Z' })),
    hit(
      'G1-doc',
      source('G1', {
        dataAjuizamento: '2021-06-01T10:00:00-03:00',
        dataHoraUltimaAtualizacao: '2022-01-01T00:00:00Z',
        '@timestamp': '2025-10-28T05:46:42.681808837Z',
        nivelSigilo: '0',
        classe: { codigo: '1116', nome: 'Execução Fiscal' },
        orgaoJulgador: { codigo: '13597', nome: 'VARA DE EXECU??O FISCAL DO DF' },
        assuntos: [[{ codigo: 6017, nome: 'IPTU' }], [{ codigo: '10394', nome: 'Dívida Ativa' }, [{ codigo: 1, nome: 'deep' }]]],
        movimentos: [
          dup,
          { codigo: 26, nome: 'Distribuição', dataHora: '20210601100000', orgaoJulgador: { codigoOrgao: 13597, nomeOrgao: 'VARA' } },
          { ...dup },
          { codigo: 11010, nome: 'Mero expediente', dataHora: '2022-03-22T08:29:48.000Z' },
          { ...dup, complementosTabelados: [{ codigo: '5', valor: 7, nome: 'x', descricao: 'y' }] },
          'not a movement',
          { codigo: 60, nome: 'Expedição', dataHora: 'ontem' },
          { nome: 'sem código nem data' },
        ],
      }),
    ),
    hit('G1-doc', source('G1', { movimentos: [] })), // the same document again (search_after overlap)
    hit('no-number', { tribunal: 'TJDFT', grau: 'G1', movimentos: [dup] }),
    hit('not-an-object', null),
    hit('JE-doc', source('JE', { dataAjuizamento: 'not a date', classe: 'oops', formato: { codigo: 1 } })),
  ];
}

test('quirks: nested assuntos, string/number codes, codigoOrgao/nomeOrgao, exact duplicates, odd dates, missing fields', () => {
  const cases = parseHits(quirkyHits());
  assert.equal(cases.length, 1, 'the hits without numeroProcesso or _source are skipped');
  const [c] = cases;
  assert.equal(c.tribunal, 'TJDFT');
  assert.deepEqual(
    c.instancias.map((i) => i.grau),
    ['G1', 'G2', 'JE', 'TR'],
  );
  assert.equal(c.raw.length, 4, 'one raw document per distinct _id');
  const g1 = c.instancias[0];
  assert.deepEqual(g1.assuntos, [
    { codigo: '6017', nome: 'IPTU' },
    { codigo: '10394', nome: 'Dívida Ativa' },
    { codigo: '1', nome: 'deep' },
  ]);
  assert.equal(g1.dataAjuizamento, '2021-06-01T13:00:00.000Z', 'offset applied');
  assert.equal(g1.nivelSigilo, 0);
  assert.deepEqual(g1.classe, { codigo: '1116', nome: 'Execução Fiscal' });
  assert.equal(g1.orgaoJulgador?.codigoMunicipioIBGE, null);
  // 7 movement objects, two of them exact duplicates of the first (the third differs only in number vs string codes: also a duplicate)
  assert.equal(g1.movimentos.length, 5);
  const keys = new Set(g1.movimentos.map((m) => m.key));
  assert.equal(keys.size, 5);
  const distribuicao = g1.movimentos.find((m) => m.codigo === '26')!;
  assert.equal(distribuicao.dataHora, '2021-06-01T10:00:00.000Z');
  assert.deepEqual(distribuicao.orgaoJulgador, { codigo: '13597', nome: 'VARA' });
  assert.equal(g1.movimentos.find((m) => m.codigo === '60')!.dataHora, 'ontem', 'an unparseable date keeps the movement');
  const bare = g1.movimentos.find((m) => m.codigo === '')!;
  assert.equal(bare.dataHora, '');
  assert.deepEqual(bare.complementos, []);
  assert.deepEqual(g1.movimentos.map((m) => m.dataHora).slice(0, 3), ['ontem', '2022-03-22T08:29:49.000Z', '2022-03-22T08:29:48.000Z']);
  const je = c.instancias[2];
  assert.equal(je.dataAjuizamento, null);
  assert.equal(je.classe, null);
  assert.deepEqual(je.formato, { codigo: '1', nome: '' });
  assert.deepEqual(je.assuntos, []);
  assert.deepEqual(je.movimentos, []);
  const tr = c.instancias[3];
  assert.deepEqual(
    { ...tr, movimentos: undefined },
    {
      grau: 'TR',
      upstreamId: 'TR-doc',
      classe: null,
      assuntos: [],
      orgaoJulgador: null,
      sistema: null,
      formato: null,
      nivelSigilo: 0,
      dataAjuizamento: null,
      dataHoraUltimaAtualizacao: null,
      movimentos: undefined,
    },
  );
  assert.equal(c.instancias[1].dataHoraUltimaAtualizacao, '2023-01-02T03:04:05.123Z', 'nanoseconds truncated');
  assert.equal(c.atualizadoEm, '2023-01-02T03:04:05.123Z');
});

test('movement order and keys do not depend on the order DataJud sends them in', () => {
  const hits = quirkyHits();
  const reversed = hits.map((h) => {
    const s = h._source as any;
    return s && Array.isArray(s.movimentos) ? { ...h, _source: { ...s, movimentos: [...s.movimentos].reverse() } } : h;
  });
  assert.deepEqual(
    parseHits(reversed)[0].instancias.map((i) => i.movimentos),
    parseHits(hits)[0].instancias.map((i) => i.movimentos),
  );
});

test('the movement key is sha1(instance id|codigo|dataHora|nome|complements)', () => {
  const m = { codigo: '26', dataHora: '2021-01-01T00:00:00.000Z', nome: 'Distribuição', complementos: [] };
  assert.notEqual(movementKey('A', m), movementKey('B', m), 'the same event in two instances is two movements');
  assert.equal(movementKey('A', m), movementKey('A', { ...m }));
});

test('an empty or hit-less response parses to no case; the tribunal falls back to the alias court', () => {
  assert.deepEqual(parseHits([]), []);
  const cases = parseHits([{ _index: null, _id: '', _source: { numeroProcesso: '5019210-08.2021.4.04.7100' }, sort: null }], { tribunal: 'TRF4' });
  assert.equal(cases[0].numeroCnj, '50192100820214047100', 'a masked number is reduced to its digits');
  assert.equal(cases[0].tribunal, 'TRF4');
});

test('normalizeDataJudDate accepts both DataJud formats and refuses what is not a date', () => {
  const cases: Array<[unknown, string | null]> = [
    ['20250708160117', '2025-07-08T16:01:17.000Z'],
    ['20250708', '2025-07-08T00:00:00.000Z'],
    [20250708160117, '2025-07-08T16:01:17.000Z'],
    ['2018-10-29T00:00:00.000Z', '2018-10-29T00:00:00.000Z'],
    ['2025-10-28T05:46:42.681808837Z', '2025-10-28T05:46:42.681Z'],
    ['2026-09-07T14:52:04.214000Z', '2026-09-07T14:52:04.214Z'],
    ['2021-06-01T10:00:00-0300', '2021-06-01T13:00:00.000Z'],
    ['2021-06-01 10:00:00', '2021-06-01T10:00:00.000Z'],
    ['2021-06-01', '2021-06-01T00:00:00.000Z'],
    [1681366085550, '2023-04-13T06:08:05.550Z'],
    ['20251332000000', null],
    ['2025-02-30T00:00:00Z', null],
    ['ontem', null],
    ['', null],
    [null, null],
    [undefined, null],
    [{}, null],
    [Number.NaN, null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeDataJudDate(input), expected, JSON.stringify(input));
});
