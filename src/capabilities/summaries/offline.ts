/**
 * The offline summary: written by code, deterministically, from the stored case (facts.ts), for a
 * lawyer skimming it: who, where, how much, what happened (the phases the TPU codes show), where it
 * stands now, the latest movements, publication and documents. Used when no model is configured
 * (TRAMITA_SUMMARY_PROVIDER=extrativo, or no URL and no sandbox). The same facts give the same text.
 *
 * The current state is inferred from the movements (tpu.md §4) and says so: the last movement does
 * not prove the outcome, so the text names the movement it reads and asks to confirm in the records.
 */
import { formatDateBr, formatReais } from '../../platform/format.ts';
import { htmlToText } from '../../platform/text.ts';
import type { CaseFacts, FactInstance, FactMovement, FactParty } from './facts.ts';
import { LAWYER_POLE, type LawyerRecord } from '../../platform/ports/case-details.ts';
import { describeMovement as describe } from '../processes/parts.ts';
import { phaseOf, type Phase } from './phases.ts';

export const OFFLINE_METHOD = 'extrativo-v1';

/** Spec §1 rule 5, in the words every summary ends with. */
export const SUMMARY_DISCLAIMER = 'Resumo apenas informativo: não substitui decisão judicial, a leitura dos autos nem parecer de profissional habilitado.';

const LATEST_MOVEMENTS = 8;
const LISTED_DOCUMENTS = 5;
const PUBLICATION_EXCERPT = 600;
const DECISION_EXCERPT = 900;
const IDLE_DAYS_WORTH_SAYING = 90;
const DAY_MS = 86_400_000;

const GRAUS: Record<string, string> = {
  G1: '1º grau',
  G2: '2º grau',
  JE: 'Juizado Especial',
  TR: 'Turma Recursal',
  SUP: 'tribunal superior',
  TRU: 'Turma Regional de Uniformização',
  TNU: 'Turma Nacional de Uniformização',
};
const grauName = (grau: string) => GRAUS[grau] ?? grau;
/** Instances that review another's decision. */
const APPELLATE = new Set(['G2', 'TR', 'SUP', 'TRU', 'TNU']);

const POLOS: [string, string][] = [
  ['ATIVO', 'Polo ativo'],
  ['PASSIVO', 'Polo passivo'],
  ['OUTROS', 'Outros participantes'],
  [LAWYER_POLE, 'Advogados sem polo informado'],
];

export function writeOfflineSummary(facts: CaseFacts): string {
  const moves = facts.movimentos;
  const sections = [
    `# Resumo do processo ${facts.numeroCnjFormatado}`,
    identification(facts),
    `## Situação atual\n\n${currentState(facts)}`,
    `## Partes\n\n${parties(facts.partes)}`,
    `## Fases\n\n${phases(moves, facts)}`,
    facts.instancias.length > 1 ? `## Instâncias\n\n${facts.instancias.map(instanceLine).join('\n')}` : null,
    moves.length > 0
      ? `## Últimos movimentos\n\n${moves
          .slice(0, LATEST_MOVEMENTS)
          .map((m) => `- ${movementLine(m, facts)}`)
          .join('\n')}`
      : null,
    facts.publicacoes.length > 0 ? `## Última publicação\n\n${lastPublication(facts)}` : null,
    facts.documentos.some((d) => d.texto) ? `## Última decisão\n\n${lastDecision(facts)}` : null,
    facts.documentos.length > 0 ? `## Documentos públicos\n\n${documents(facts)}` : null,
    `---\n\n_${SUMMARY_DISCLAIMER}_\n\nMétodo: resumo extrativo escrito por código a partir dos dados do processo guardados pelo Tramita, sem modelo de ` +
      `linguagem (${OFFLINE_METHOD}). Dados lidos na fonte em ${formatDateBr(facts.consultadoEm)}.`,
  ];
  return `${sections.filter((s): s is string => s !== null).join('\n\n')}\n`;
}

function identification(facts: CaseFacts): string {
  const first = facts.instancias[0];
  const lines: string[] = [];
  if (first) {
    const where = [facts.tribunal, grauName(first.grau), first.orgaoJulgador?.nome].filter(Boolean).join(', ');
    const filed = first.dataAjuizamento ? `, ajuizado em ${formatDateBr(first.dataAjuizamento)}` : '';
    lines.push(`**${first.classe?.nome ?? 'Classe não informada pela fonte'}** — ${where}${filed}.`);
    const subjects = [...new Set(facts.instancias.flatMap((i) => i.assuntos.map((a) => a.nome)))];
    lines.push(subjects.length > 0 ? `Assuntos: ${subjects.join('; ')}.` : 'Assuntos: não informados pela fonte.');
  } else {
    lines.push(`Processo do ${facts.tribunal}; a fonte não informa classe nem órgão julgador.`);
  }
  lines.push(facts.valorCausaCentavos !== null ? `Valor da causa: ${formatReais(facts.valorCausaCentavos)}.` : 'Valor da causa: não informado pela fonte.');
  const sealed = Math.max(0, ...facts.instancias.map((i) => i.nivelSigilo));
  if (sealed > 0) lines.push(`Sigilo de nível ${sealed}: parte dos dados pode não estar pública.`);
  const count = facts.movimentosTotal;
  const updated = facts.atualizadoEm ? `; dados atualizados pela fonte em ${formatDateBr(facts.atualizadoEm)}` : '';
  lines.push(`${count} ${count === 1 ? 'movimento registrado' : 'movimentos registrados'}${updated}.`);
  return lines.join('\n');
}

/** Newest movement of each phase, and how many there were. */
function phaseIndex(moves: FactMovement[]): Map<Phase, { latest: FactMovement; earliest: FactMovement; count: number }> {
  const index = new Map<Phase, { latest: FactMovement; earliest: FactMovement; count: number }>();
  for (const m of moves) {
    const phase = phaseOf(m);
    if (!phase) continue;
    const seen = index.get(phase);
    if (seen) {
      seen.count++;
      seen.earliest = m; // newest first: the last one seen is the earliest
    } else index.set(phase, { latest: m, earliest: m, count: 1 });
  }
  return index;
}

function currentState(facts: CaseFacts): string {
  const moves = facts.movimentos;
  const last = moves[0];
  if (!last) return 'Nenhum movimento registrado na fonte: não é possível inferir a situação.';
  const at = (m: FactMovement) => `${formatDateBr(m.dataHora)} (${describe(m)}, ${grauName(m.grau)})`;
  const lastArchive = moves.find((m) => ['arquivamento_definitivo', 'baixa', 'arquivamento_provisorio'].includes(phaseOf(m) ?? ''));
  const judged = moves.find((m) => phaseOf(m) === 'julgamento');
  const res = moves.find((m) => phaseOf(m) === 'transito');
  let state: string;
  if (lastArchive && lastArchive === last) {
    state =
      phaseOf(last) === 'arquivamento_provisorio'
        ? `**Arquivado provisoriamente** desde ${at(last)}: pode ser desarquivado a pedido da parte.`
        : `**Encerrado** — ${phaseOf(last) === 'baixa' ? 'baixa definitiva' : 'arquivado definitivamente'} em ${at(last)}.`;
  } else if (res) {
    state = `**Transitado em julgado** em ${formatDateBr(res.dataHora)}${res === last ? '' : `; depois disso, o último movimento foi em ${at(last)}`}.`;
  } else if (judged) {
    const appellate = APPELLATE.has(judged.grau);
    state =
      `**Julgado** em ${at(judged)}, sem trânsito em julgado ` +
      `registrado: ${appellate ? 'cabem ainda recursos às instâncias superiores ou a baixa dos autos' : 'pode haver recurso ou prazo em curso'}.`;
  } else if (APPELLATE.has(last.grau)) {
    state = `**Em grau de recurso** (${grauName(last.grau)}), aguardando julgamento; último movimento em ${at(last)}.`;
  } else if (phaseOf(last) === 'conclusao') {
    state = `**Concluso ao juiz** desde ${at(last)}.`;
  } else {
    state = `**Em andamento**, sem sentença registrada; último movimento em ${at(last)}.`;
  }
  const idle = daysBetween(last.dataHora, facts.dataReferencia);
  const idleLine = idle >= IDLE_DAYS_WORTH_SAYING && !(lastArchive === last) ? `\n\nSem movimentação há ${idle} dias.` : '';
  return `${state}${idleLine}\n\n_Situação inferida dos movimentos registrados; confirme nos autos._`;
}

function daysBetween(iso: string, day: string): number {
  const from = Date.parse(iso);
  const to = Date.parse(`${day}T23:59:59Z`);
  return Number.isNaN(from) || Number.isNaN(to) ? 0 : Math.max(0, Math.floor((to - from) / DAY_MS));
}

function parties(partes: FactParty[] | null): string {
  if (partes === null)
    return 'A fonte consultada não informa as partes (a API pública do DataJud não as publica); consulte-as na página do processo no tribunal.';
  if (partes.length === 0) return 'Nenhuma parte pública registrada.';
  const blocks: string[] = [];
  for (const [polo, title] of POLOS) {
    const of = partes.filter((p) => p.polo === polo || (polo === 'OUTROS' && !POLOS.some(([named]) => named === p.polo)));
    if (of.length === 0) continue;
    blocks.push(`**${title}**\n${of.map(polo === LAWYER_POLE ? lawyerLine : partyLine).join('\n')}`);
  }
  return blocks.join('\n\n');
}

const lawyerText = (a: LawyerRecord) => (a.oab ? `${a.nome} (OAB/${a.oab.uf} ${a.oab.numero})` : a.nome);

/** A lawyer listed without a side (DJEN's communications to both poles): the entry is the lawyer. */
function lawyerLine(p: FactParty): string {
  return `- ${p.advogados[0] ? lawyerText(p.advogados[0]) : p.nome}`;
}

function partyLine(p: FactParty): string {
  const role = p.tipo ? ` (${capitalised(p.tipo)})` : '';
  const lawyers = p.advogados.map(lawyerText);
  const represented = lawyers.length > 0 ? ` — ${lawyers.length === 1 ? 'advogado(a)' : 'advogados(as)'}: ${lawyers.join(', ')}` : ' — sem advogado registrado';
  return `- ${p.nome}${role}${represented}`;
}

function capitalised(text: string): string {
  const lower = text.toLocaleLowerCase('pt-BR');
  return lower.charAt(0).toLocaleUpperCase('pt-BR') + lower.slice(1);
}

function phases(moves: FactMovement[], facts: CaseFacts): string {
  if (moves.length === 0) return 'Sem movimentos para identificar as fases.';
  const index = phaseIndex(moves);
  const lines: string[] = [];
  const first = (p: Phase) => index.get(p)?.earliest;
  const latest = (p: Phase) => index.get(p)?.latest;
  const counted = (p: Phase, one: string, many: string) => {
    const e = index.get(p);
    if (!e) return;
    lines.push(e.count === 1 ? `- ${one}: ${movementLine(e.latest, facts)}.` : `- ${many}: ${e.count}, a última em ${movementLine(e.latest, facts)}.`);
  };
  const distributed = first('distribuicao');
  if (distributed) lines.push(`- Distribuição: ${movementLine(distributed, facts)}.`);
  counted('audiencia', 'Audiência', 'Audiências');
  counted('decisao', 'Decisão', 'Decisões');
  counted('constricao', 'Bloqueio ou penhora', 'Bloqueios ou penhoras');
  const judgments = moves.filter((m) => phaseOf(m) === 'julgamento').reverse();
  for (const j of judgments.filter((m) => !APPELLATE.has(m.grau)).slice(-1)) lines.push(`- Sentença: ${movementLine(j, facts)}.`);
  const appeal = first('recurso');
  const appellateInstance = facts.instancias.find((i) => APPELLATE.has(i.grau));
  if (appeal) lines.push(`- Recurso: autos remetidos em ${movementLine(appeal, facts)}.`);
  else if (appellateInstance)
    lines.push(
      `- Recurso: ${appellateInstance.classe?.nome ?? 'recurso'} ` +
        `no ${grauName(appellateInstance.grau)}${appellateInstance.dataAjuizamento ? `, desde ${formatDateBr(appellateInstance.dataAjuizamento)}` : ''}.`,
    );
  for (const j of judgments.filter((m) => APPELLATE.has(m.grau)).slice(-1)) lines.push(`- Julgamento do recurso: ${movementLine(j, facts)}.`);
  const res = latest('transito');
  if (res) lines.push(`- Trânsito em julgado: ${formatDateBr(res.dataHora)}.`);
  const closed = latest('arquivamento_definitivo') ?? latest('baixa');
  if (closed) lines.push(`- Arquivamento definitivo ou baixa: ${movementLine(closed, facts)}.`);
  else if (latest('arquivamento_provisorio')) lines.push(`- Arquivamento provisório: ${movementLine(latest('arquivamento_provisorio')!, facts)}.`);
  if (lines.length === 0) return `Os ${moves.length} movimentos lidos ainda não mostram distribuição, decisão nem julgamento.`;
  const partial = facts.movimentosTotal > moves.length ? `\n\n_Fases lidas dos ${moves.length} movimentos mais recentes de ${facts.movimentosTotal}._` : '';
  return `${lines.join('\n')}${partial}`;
}

/** `05/03/2024 — Conclusão (para julgamento)`, with the instance when the case has more than one. */
function movementLine(m: FactMovement, facts: CaseFacts): string {
  const where = facts.instancias.length > 1 ? ` [${grauName(m.grau)}]` : '';
  return `${formatDateBr(m.dataHora)} — ${describe(m)}${where}`;
}

function instanceLine(i: FactInstance): string {
  const parts = [
    i.classe?.nome,
    i.orgaoJulgador?.nome,
    i.dataAjuizamento ? `ajuizado em ${formatDateBr(i.dataAjuizamento)}` : null,
    `${i.quantidadeMovimentacoes} movimentos`,
  ];
  return `- ${grauName(i.grau)}: ${parts.filter(Boolean).join(', ')}.`;
}

function lastPublication(facts: CaseFacts): string {
  const p = facts.publicacoes[0];
  const kind = [p.tipoComunicacao, p.tipoDocumento].filter(Boolean).join(' — ');
  const text = htmlToText(p.texto).replace(/\s+/g, ' ');
  const excerpt = text.length > PUBLICATION_EXCERPT ? `${text.slice(0, PUBLICATION_EXCERPT).replace(/\s+\S*$/, '')}…` : text;
  const more =
    facts.publicacoes.length > 1 ? `\n\n${facts.publicacoes.length - 1} outra(s) publicação(ões) no Diário de Justiça ligada(s) a este processo.` : '';
  return `${formatDateBr(p.data)}, ${p.tribunal}${p.orgao ? `, ${p.orgao}` : ''}${kind ? ` (${kind})` : ''}:\n\n> ${excerpt}${more}`;
}

/** The newest decision whose text Tramita holds (issue 53): when, what, who signed it, and its opening lines. */
function lastDecision(facts: CaseFacts): string {
  const d = facts.documentos.find((x) => x.texto)!;
  const text = d.texto!.replace(/\s+/g, ' ');
  const excerpt = text.length > DECISION_EXCERPT ? `${text.slice(0, DECISION_EXCERPT).replace(/\s+\S*$/, '')}…` : text;
  const what = `${d.titulo}${d.tipo && d.tipo !== d.titulo ? ` (${d.tipo})` : ''}${d.assinante ? `, assinada por ${d.assinante}` : ''}`;
  return `${formatDateBr(d.dataJuntada)} — ${what}:\n\n> ${excerpt}`;
}

function documents(facts: CaseFacts): string {
  const listed = facts.documentos
    .slice(0, LISTED_DOCUMENTS)
    .map((d) => `- ${formatDateBr(d.dataJuntada)} — ${d.titulo}${d.tipo && d.tipo !== d.titulo ? ` (${d.tipo})` : ''}`);
  const rest = facts.documentos.length - listed.length;
  return `${listed.join('\n')}${rest > 0 ? `\n- e mais ${rest} documento(s).` : ''}`;
}
