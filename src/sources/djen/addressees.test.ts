/** DJEN's addressees as a case's parties: poles, lawyers placed only from one-pole communications, cancelled ones ignored. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { addresseesOf } from './addressees.ts';

const N = '00012345620248050001';
let id = 0;
function item(
  destinatarios: { nome: string; polo: string }[],
  advogados: { nome: string; uf: string; numero: string }[],
  extra: Partial<PublicationRecord> = {},
): PublicationRecord {
  return {
    id: String(++id),
    hash: null,
    numeroCnj: N,
    tribunal: 'TJBA',
    dataDisponibilizacao: `2026-01-${String(10 + id).padStart(2, '0')}`,
    tipoComunicacao: 'Intimação',
    tipoDocumento: null,
    orgao: null,
    classe: null,
    meio: 'D',
    numeroComunicacao: null,
    texto: '',
    link: null,
    ativo: true,
    cancelamento: null,
    destinatarios,
    advogados: advogados.map((a) => ({ nome: a.nome, oab: { uf: a.uf, numero: a.numero } })),
    raw: {},
    ...extra,
  };
}

test('parties by pole in first-named order, lawyers beside one-pole addressees, no document, no value, fonte DJEN', () => {
  const d = addresseesOf(N, [
    item([{ nome: 'BANCO FICTICIO S.A.', polo: 'P' }], [{ nome: 'ADV PASSIVO', uf: 'BA', numero: '111' }]),
    item(
      [
        { nome: 'MARIA FICTICIA', polo: 'A' },
        { nome: 'BANCO FICTICIO S.A.', polo: 'P' },
      ],
      [{ nome: 'ADV AMBOS', uf: 'BA', numero: '222' }],
    ),
    item(
      [{ nome: 'Maria Fictícia', polo: 'A' }],
      [
        { nome: 'ADV ATIVO', uf: 'BA', numero: '333' },
        { nome: 'ADV ATIVO', uf: 'BA', numero: '333' },
      ],
    ),
    item([{ nome: 'CANCELADA FICTICIA', polo: 'A' }], [], { ativo: false }),
  ])!;
  assert.equal(d.fonte, 'DJEN');
  assert.equal(d.valorCausaCentavos, null);
  assert.deepEqual(
    d.partes.map((p) => [p.polo, p.nome, p.tipoPessoa, p.documento]),
    [
      ['ATIVO', 'MARIA FICTICIA', 'FISICA', null],
      ['PASSIVO', 'BANCO FICTICIO S.A.', 'JURIDICA', null],
      ['ADVOGADO', 'ADV AMBOS', 'FISICA', null],
    ],
  );
  assert.deepEqual(
    d.partes.map((p) => p.advogados.map((a) => a.oab?.numero)),
    [['333'], ['111'], ['222']],
    'the lawyer of a two-pole communication is placed on no side: it is listed with the case, pole unknown',
  );
  assert.equal(d.partes[2]!.tipo, 'Advogado');
});

test('a lawyer of a two-pole communication also seen on a one-pole one is placed there, and listed once', () => {
  const d = addresseesOf(N, [
    item(
      [
        { nome: 'AUTORA FICTICIA', polo: 'A' },
        { nome: 'RE FICTICIA LTDA', polo: 'P' },
      ],
      [
        { nome: 'ADV DA AUTORA', uf: 'BA', numero: '444' },
        { nome: 'ADV SEM POLO', uf: 'BA', numero: '555' },
        { nome: 'ADV SEM POLO', uf: 'BA', numero: '555' },
      ],
    ),
    item([{ nome: 'AUTORA FICTICIA', polo: 'A' }], [{ nome: 'Adv da Autora', uf: 'BA', numero: '444' }]),
  ])!;
  assert.deepEqual(
    d.partes.map((p) => [p.polo, p.nome, p.advogados.map((a) => `${a.oab?.uf}${a.oab?.numero}`)]),
    [
      ['ATIVO', 'AUTORA FICTICIA', ['BA444']],
      ['PASSIVO', 'RE FICTICIA LTDA', []],
      ['ADVOGADO', 'ADV SEM POLO', ['BA555']],
    ],
  );
});

test('no communication of the case: null', () => {
  assert.equal(addresseesOf(N, []), null);
  assert.equal(addresseesOf(N, [item([{ nome: 'OUTRO', polo: 'A' }], [], { numeroCnj: '00000000000000000000' })]), null);
});
