/**
 * TJDFT's answers as the recon documents them (reference/upstream/real/README.md §4; no real capture
 * exists): the envelope, the participant string read from the right, lawyers after their party.
 */
import { test } from 'node:test';
import { Anomalies } from '../anomalies.ts';
import assert from 'node:assert/strict';
import { dadosOf, envelopeOf, participantOf, partiesOfPole, processIdOf, TjdftAnswerError } from './parse.ts';
import { subjectLeaf } from '../subject.ts';

test('the envelope: status "ok" or a failure; the first hit\'s idProcesso; an empty result is not found', () => {
  const e = envelopeOf({
    status: 'ok',
    code: '200',
    messages: [],
    result: [{ idProcesso: 'aBc-_123=' }],
    pageInfo: { current: 0, last: 2, size: 10, count: 25 },
  });
  assert.deepEqual(e.pageInfo, { current: 0, last: 2 });
  assert.equal(processIdOf(e.result), 'aBc-_123=');
  assert.equal(processIdOf([]), null);
  for (const bad of [{ status: 'error', result: [] }, { status: 'ok' }, [], null, 'ok']) assert.throws(() => envelopeOf(bad), TjdftAnswerError);
  assert.throws(() => processIdOf([{ idProcesso: '../x' }]), TjdftAnswerError);
});

test('a participant: name, OAB, document and role read from the right', () => {
  assert.deepEqual(participantOf({ participante: 'MARIA FICTICIA - CPF: 000.000.001-91 (AUTOR)' }), {
    nome: 'MARIA FICTICIA',
    tipo: 'AUTOR',
    documento: '00000000191',
    oab: null,
  });
  assert.deepEqual(participantOf({ participante: 'JOSE ADVOGADO - OAB DF12345-A - CPF: 000.000.101-00 (ADVOGADO)' }), {
    nome: 'JOSE ADVOGADO',
    tipo: 'ADVOGADO',
    documento: '00000010100',
    oab: { uf: 'DF', numero: '12345A' },
  });
  assert.deepEqual(participantOf({ participante: 'BANCO EXEMPLO S.A. - CNPJ: 00.000.000/0001-91 (REU)', nome: 'BANCO EXEMPLO S.A.', tipo: 'REU' }), {
    nome: 'BANCO EXEMPLO S.A.',
    tipo: 'REU',
    documento: '00000000000191',
    oab: null,
  });
  assert.equal(participantOf({ participante: 'FULANO - CPF: 639.XXX.XXX-XX (AUTOR)' })?.documento, '639.XXX.XXX-XX', 'a masked document stays masked');
  assert.deepEqual(participantOf({ participante: 'Ministério Público (FISCAL DA LEI)' }), {
    nome: 'Ministério Público',
    tipo: 'FISCAL DA LEI',
    documento: null,
    oab: null,
  });
  // A line read in part keeps what it can: no name → left out; no role → `tipo: null`; an OAB of no UF → `oab: null`. Each is an anomaly.
  const anomalies = new Anomalies();
  assert.equal(participantOf({ participante: '' }, anomalies), null);
  assert.deepEqual(participantOf({ participante: 'SEM PAPEL' }, anomalies), { nome: 'SEM PAPEL', tipo: null, documento: null, oab: null });
  assert.deepEqual(participantOf({ participante: 'JOSE ADVOGADO - OAB XX12345 (ADVOGADO)' }, anomalies)?.oab, null);
  assert.deepEqual(anomalies.campos, ['parte.linha', 'parte.tipo', 'advogado.oab']);
});

test('lawyers join the party above them; parties get their kind from their document', () => {
  const parties = partiesOfPole('ATIVO', [
    participantOf({ participante: 'MARIA FICTICIA - CPF: 000.000.001-91 (AUTOR)' })!,
    participantOf({ participante: 'JOSE ADVOGADO - OAB DF12345 (ADVOGADO)' })!,
    participantOf({ participante: 'EMPRESA FICTICIA LTDA - CNPJ: 00.000.000/0001-91 (AUTOR)' })!,
  ]);
  assert.deepEqual(
    parties.map((p) => [p.nome, p.tipoPessoa, p.advogados.map((a) => a.nome)]),
    [
      ['MARIA FICTICIA', 'FISICA', ['JOSE ADVOGADO']],
      ['EMPRESA FICTICIA LTDA', 'JURIDICA', []],
    ],
  );
});

test("dados: class, the subject's leaf, órgão, distribution in Brasília; no value", () => {
  const d = dadosOf({
    classeJudicial: 'PROCEDIMENTO COMUM CÍVEL (7)',
    assunto: 'DIREITO DO CONSUMIDOR (1156) - Responsabilidade do Fornecedor (6220) - Indenização por Dano Moral (7779)',
    orgaoJulgador: '1ª Vara Cível de Brasília',
    dataDistribuicao: '2025-03-04T10:11:12',
    jurisdicao: 'BRASÍLIA',
  });
  assert.deepEqual(d, {
    classe: 'PROCEDIMENTO COMUM CÍVEL (7)',
    assuntos: ['Indenização por Dano Moral'],
    orgao: '1ª Vara Cível de Brasília',
    foro: 'BRASÍLIA',
    distribuidoEm: '2025-03-04T10:11:12.000-03:00',
    segredo: false,
  });
  assert.equal(subjectLeaf('A (1) - B - C (2)'), 'B - C');
  assert.equal(subjectLeaf('Crédito Direto ao Consumidor - CDC (14757'), 'Crédito Direto ao Consumidor - CDC');
  // The one reader PJe's pages use too: blank runs around the separator, no subject, a name without a code.
  assert.equal(subjectLeaf('DIREITO CIVIL (899)  -\tObrigações (7681)'), 'Obrigações');
  assert.equal(subjectLeaf(null), null);
  assert.equal(subjectLeaf('Indenização (por Dano Moral)'), 'Indenização (por Dano Moral)');
});
