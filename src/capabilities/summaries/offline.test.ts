/**
 * The offline writer on hand-made facts: what a lawyer skimming the case must find (identification,
 * value, parties and lawyers, phases by TPU code, the inferred state, the latest publication as text),
 * the same text for the same facts, and honest words where the source has nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseFacts, FactMovement } from './facts.ts';
import { OFFLINE_METHOD, SUMMARY_DISCLAIMER, writeOfflineSummary } from './offline.ts';
import { describeMovement } from '../processes/movement-text.ts';
import { phaseOf } from './phases.ts';

const move = (grau: string, codigo: number, nome: string, dataHora: string, complemento?: string): FactMovement => ({
  grau,
  codigo: String(codigo),
  nome,
  dataHora,
  orgaoJulgador: null,
  complementos: complemento ? [{ codigo: '18', nome: complemento, valor: complemento === 'em grau de recurso' ? '38' : '1', descricao: 'x' }] : [],
});

function civil(over: Partial<CaseFacts> = {}): CaseFacts {
  return {
    numeroCnj: '10013024220248260100',
    numeroCnjFormatado: '1001302-42.2024.8.26.0100',
    tribunal: 'TJSP',
    instancias: [
      {
        grau: 'G1',
        classe: { codigo: '7', nome: 'Procedimento Comum Cível' },
        assuntos: [{ codigo: '10433', nome: 'Indenização por Dano Moral' }],
        orgaoJulgador: { codigo: '1', nome: '3ª Vara Cível do Foro Central' },
        sistema: null,
        dataAjuizamento: '2024-03-05',
        nivelSigilo: 0,
        quantidadeMovimentacoes: 4,
      },
    ],
    valorCausaCentavos: 1_234_56,
    partes: [
      {
        polo: 'ATIVO',
        tipo: 'AUTOR',
        nome: 'Maria de Teste',
        tipoPessoa: 'FISICA',
        advogados: [{ nome: 'João Advogado', oab: { uf: 'SP', numero: '123456' } }],
      },
      { polo: 'PASSIVO', tipo: 'RÉU', nome: 'Banco Fictício S.A.', tipoPessoa: 'JURIDICA', advogados: [] },
    ],
    movimentos: [
      move('G1', 51, 'Conclusão', '2024-06-01T14:00:00Z', 'para julgamento'),
      move('G1', 12164, 'Outras Decisões', '2024-04-10T13:00:00Z'),
      move('G1', 970, 'Audiência de conciliação realizada', '2024-04-02T13:00:00Z'),
      // 01:30 UTC on the 6th is the 5th in Brasília.
      move('G1', 26, 'Distribuição', '2024-03-06T01:30:00Z', 'sorteio'),
    ],
    movimentosTotal: 4,
    publicacoes: [
      {
        id: 'p1',
        data: '2024-04-11',
        tribunal: 'TJSP',
        tipoComunicacao: 'Intimação',
        tipoDocumento: 'Decisão',
        orgao: '3ª Vara Cível',
        texto: '<p>Vistos.&nbsp;Defiro a <b>tutela</b> de urgência.</p><p>Intime-se.</p>',
      },
    ],
    documentos: [],
    atualizadoEm: '2024-06-01T14:00:00Z',
    consultadoEm: '2024-06-02T10:00:00Z',
    dataReferencia: '2024-06-02',
    ...over,
  };
}

test('a civil case in progress: identification, value, parties with OAB, phases, state, the publication as plain text', () => {
  const text = writeOfflineSummary(civil());
  for (const expected of [
    '# Resumo do processo 1001302-42.2024.8.26.0100',
    '**Procedimento Comum Cível** — TJSP, 1º grau, 3ª Vara Cível do Foro Central, ajuizado em 05/03/2024',
    'Indenização por Dano Moral',
    'Valor da causa: R$ 1.234,56.',
    'Maria de Teste (Autor) — advogado(a): João Advogado (OAB/SP 123456)',
    'Banco Fictício S.A. (Réu) — sem advogado registrado',
    '- Distribuição: 05/03/2024 — Distribuição (sorteio).',
    '- Audiência: 02/04/2024',
    '- Decisão: 10/04/2024 — Outras Decisões.',
    '**Concluso ao juiz** desde 01/06/2024 (Conclusão (para julgamento), 1º grau).',
    '> Vistos. Defiro a tutela de urgência. Intime-se.',
    SUMMARY_DISCLAIMER,
    `sem modelo de linguagem (${OFFLINE_METHOD})`,
  ])
    assert.ok(text.includes(expected), `missing: ${expected}\n\n${text}`);
  assert.doesNotMatch(text, /undefined|NaN|null|<p>|&nbsp;/);
  assert.equal(writeOfflineSummary(civil()), text, 'deterministic');
});

test('a labour case with two instances: sentence, appeal, judgment of the appeal, res judicata, archive', () => {
  const facts = civil({
    tribunal: 'TRT2',
    instancias: [
      { ...civil().instancias[0], classe: { codigo: '985', nome: 'Ação Trabalhista - Rito Ordinário' } },
      {
        ...civil().instancias[0],
        grau: 'G2',
        classe: { codigo: '1009', nome: 'Recurso Ordinário Trabalhista' },
        dataAjuizamento: '2024-09-01',
        quantidadeMovimentacoes: 3,
      },
    ],
    movimentos: [
      move('G1', 246, 'Definitivo', '2025-03-01T12:00:00Z'),
      move('G2', 848, 'Trânsito em julgado', '2025-02-01T12:00:00Z'),
      move('G2', 239, 'Não-Provimento', '2024-12-01T12:00:00Z'),
      move('G1', 123, 'Remessa', '2024-08-30T12:00:00Z', 'em grau de recurso'),
      move('G1', 221, 'Procedência em Parte', '2024-07-01T12:00:00Z'),
      move('G1', 26, 'Distribuição', '2024-03-06T12:00:00Z'),
    ],
    movimentosTotal: 6,
    publicacoes: [],
  });
  const text = writeOfflineSummary(facts);
  for (const expected of [
    '- Sentença: 01/07/2024 — Procedência em Parte [1º grau].',
    '- Recurso: autos remetidos em 30/08/2024 — Remessa (em grau de recurso) [1º grau].',
    '- Julgamento do recurso: 01/12/2024 — Não-Provimento [2º grau].',
    '- Trânsito em julgado: 01/02/2025.',
    '**Encerrado** — arquivado definitivamente em 01/03/2025 (Arquivamento definitivo, 1º grau).',
    '## Instâncias',
    '- 2º grau: Recurso Ordinário Trabalhista',
  ])
    assert.ok(text.includes(expected), `missing: ${expected}\n\n${text}`);
  assert.doesNotMatch(text, /Sem movimentação há/, 'an archived case is not "idle"');
});

test('what the source does not have is said, not invented: no parties, no value, no movements', () => {
  const text = writeOfflineSummary(civil({ partes: null, valorCausaCentavos: null, movimentos: [], movimentosTotal: 0, publicacoes: [] }));
  assert.match(text, /Valor da causa: não informado pela fonte\./);
  assert.match(text, /não informa as partes/);
  assert.match(text, /Nenhum movimento registrado na fonte/);
  assert.doesNotMatch(text, /## Últimos movimentos|## Última publicação|undefined|NaN/);
});

test('a lawyer whose side DJEN does not say is listed apart, by name and OAB, not as a party of "Outros"', () => {
  const base = civil({});
  const lawyer = { nome: 'Advogada Sem Polo', oab: { uf: 'BA', numero: '555' } };
  const text = writeOfflineSummary(
    civil({ partes: [...base.partes!, { polo: 'ADVOGADO', tipo: 'Advogado', nome: lawyer.nome, tipoPessoa: 'FISICA', advogados: [lawyer] }] }),
  );
  assert.match(text, /\*\*Advogados sem polo informado\*\*\n- Advogada Sem Polo \(OAB\/BA 555\)\n?/);
  assert.doesNotMatch(text, /Outros participantes/);
});

test('a case idle for months says so; a provisional archive is not the end', () => {
  const idle = writeOfflineSummary(civil({ dataReferencia: '2025-01-10' }));
  assert.match(idle, /Sem movimentação há 223 dias\./);
  const archived = writeOfflineSummary(civil({ movimentos: [move('G1', 245, 'Provisório', '2024-05-01T12:00:00Z'), ...civil().movimentos.slice(1)] }));
  assert.match(archived, /\*\*Arquivado provisoriamente\*\* desde 01\/05\/2024/);
});

test('phases are keyed on TPU codes; names only where the TPU gives no reliable code', () => {
  assert.equal(phaseOf(move('G1', 848, 'qualquer nome', '2024-01-01T00:00:00Z')), 'transito');
  assert.equal(phaseOf(move('G1', 11405, 'Homologação de acordo', '2024-01-01T00:00:00Z')), 'julgamento');
  assert.equal(phaseOf(move('G1', 123, 'Remessa', '2024-01-01T00:00:00Z')), null, 'a remessa that is not an appeal');
  assert.equal(phaseOf(move('G1', 99999, 'Audiência de instrução designada', '2024-01-01T00:00:00Z')), 'audiencia');
  assert.equal(describeMovement(move('G1', 85, 'Petição', '2024-01-01T00:00:00Z', 'Petição (outras)')), 'Petição (outras)');
  assert.equal(describeMovement(move('G1', 246, 'Definitivo', '2024-01-01T00:00:00Z')), 'Arquivamento definitivo');
});
