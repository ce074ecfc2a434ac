/**
 * The offline summariser's time per case (issue 15 target: ≤ 5 ms for a case with 200 movements):
 * a two-instance case with 200 movements of the TPU codes the sandbox uses, six parties with
 * lawyers, five HTML publications of ~3 KB and twenty documents, summarised N times after a warm-up.
 * Next to it, in the same run, a JSON round-trip of the same facts (what any request path pays to
 * store or send them) as the baseline, so a noisy machine shows as a moved baseline, not a moved ratio.
 * Standalone: node bench/summaries.ts
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CaseFacts, FactMovement } from '../src/capabilities/summaries/facts.ts';
import { writeOfflineSummary } from '../src/capabilities/summaries/offline.ts';
import { MOVEMENTS } from '../src/sandbox/data/tpu.ts';

export const OFFLINE_SUMMARY_TARGET_MS = 5;
const MOVEMENT_COUNT = 200;
const RUNS = 2_000;
const WARMUP = 200;

function benchFacts(): CaseFacts {
  const kinds = Object.values(MOVEMENTS);
  const start = Date.parse('2019-02-01T12:00:00Z');
  const movimentos: FactMovement[] = Array.from({ length: MOVEMENT_COUNT }, (_, i) => {
    const k = kinds[(i * 7) % kinds.length];
    return {
      grau: i < 150 ? 'G1' : 'G2',
      codigo: String(k.codigo),
      nome: k.nome,
      dataHora: new Date(start + i * 9 * 86_400_000).toISOString(),
      orgaoJulgador: null,
      complementos:
        'complemento' in k && k.complemento
          ? [{ codigo: String(k.complemento.codigo), nome: k.complemento.nome, valor: String(k.complemento.valor), descricao: k.complemento.descricao }]
          : [],
    };
  }).reverse();
  const paragraph =
    '<p>Vistos.&nbsp;Trata-se de ação de indenização por danos morais. <b>Defiro</b> o pedido de tutela de urgência, nos termos do art. 300 do CPC.</p>';
  const instance = (grau: string, classe: string) => ({
    grau,
    classe: { codigo: '7', nome: classe },
    assuntos: [
      { codigo: '10433', nome: 'Indenização por Dano Moral' },
      { codigo: '7681', nome: 'Obrigações' },
    ],
    orgaoJulgador: { codigo: '1', nome: grau === 'G1' ? '3ª Vara Cível do Foro Central' : '12ª Câmara de Direito Privado' },
    sistema: null,
    dataAjuizamento: grau === 'G1' ? '2019-02-01' : '2022-09-10',
    nivelSigilo: 0,
    quantidadeMovimentacoes: grau === 'G1' ? 150 : 50,
  });
  return {
    numeroCnj: '10013024220198260100',
    numeroCnjFormatado: '1001302-42.2019.8.26.0100',
    tribunal: 'TJSP',
    instancias: [instance('G1', 'Procedimento Comum Cível'), instance('G2', 'Apelação Cível')],
    valorCausaCentavos: 12_345_678,
    partes: Array.from({ length: 6 }, (_, i) => ({
      polo: i % 2 === 0 ? 'ATIVO' : 'PASSIVO',
      tipo: i % 2 === 0 ? 'AUTOR' : 'RÉU',
      nome: `Parte Fictícia ${i + 1}`,
      tipoPessoa: 'FISICA',
      advogados: [{ nome: `Advogada Fictícia ${i + 1}`, oab: { uf: 'SP', numero: String(100_000 + i) } }],
    })),
    movimentos,
    movimentosTotal: MOVEMENT_COUNT,
    publicacoes: Array.from({ length: 5 }, (_, i) => ({
      id: `p${i}`,
      data: `2024-0${i + 1}-10`,
      tribunal: 'TJSP',
      tipoComunicacao: 'Intimação',
      tipoDocumento: 'Decisão',
      orgao: '3ª Vara Cível',
      texto: paragraph.repeat(20),
    })),
    documentos: Array.from({ length: 20 }, (_, i) => ({ titulo: `Documento ${i + 1}`, tipo: 'Petição', dataJuntada: '2024-01-10' })),
    atualizadoEm: movimentos[0].dataHora,
    consultadoEm: '2024-12-01T10:00:00Z',
    dataReferencia: '2024-12-01',
  };
}

function msPerRun(fn: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < RUNS; i++) fn();
  return (performance.now() - t0) / RUNS;
}

export interface OfflineSummaryResult {
  movements: number;
  runs: number;
  msPerCase: number;
  jsonRoundTripMs: number;
  /** msPerCase ÷ jsonRoundTripMs. */
  ratio: number;
  chars: number;
}

export function offlineSummaryBench(): OfflineSummaryResult {
  const facts = benchFacts();
  const jsonRoundTripMs = msPerRun(() => JSON.parse(JSON.stringify(facts)));
  const msPerCase = msPerRun(() => writeOfflineSummary(facts));
  return { movements: MOVEMENT_COUNT, runs: RUNS, msPerCase, jsonRoundTripMs, ratio: msPerCase / jsonRoundTripMs, chars: writeOfflineSummary(facts).length };
}

export function describeOfflineSummary(r: OfflineSummaryResult): string {
  return (
    `Offline summary (extrativo-v1): a case with ${r.movements} movements, 6 parties, 5 publications, ${r.runs} runs: ${r.msPerCase.toFixed(3)} ms per ` +
    `case (target <= ${OFFLINE_SUMMARY_TARGET_MS}: ${r.msPerCase <= OFFLINE_SUMMARY_TARGET_MS ? 'MET' : 'NOT MET'}), ${r.chars} ` +
    `characters; a JSON round-trip of the same facts ${r.jsonRoundTripMs.toFixed(3)} ms (ratio ${r.ratio.toFixed(2)}).`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeOfflineSummary(offlineSummaryBench()));
