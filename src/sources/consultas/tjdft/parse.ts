/**
 * TJDFT's REST consultation (reference/upstream/real/README.md §4). No real capture of it exists (the
 * recon's fixtures have no `tjdft/` folder): these readers follow the documented shapes only, and are
 * strict where the documentation is clear: every answer is `{status: "ok", code, messages, result,
 * pageInfo?}` and anything else is a failure; a participant is `NAME - OAB UF<num> - CPF: … (TIPO)`;
 * lawyers follow the party they represent; CPF/CNPJ come unmasked; there is no value of the claim.
 */
import { brasiliaInstantOfLocal, isoDayOf } from '../../../platform/format.ts';
import { fromPage } from '../../../platform/identifiers/on-page.ts';
import { Anomalies } from '../anomalies.ts';
import { subjectLeaf } from '../subject.ts';
import { classifyMessage, MESSAGE_FAILURES, type CourtMessage } from '../messages.ts';
import type { ConsultaLawyer, ConsultaParty } from '../record.ts';

export class TjdftAnswerError extends Error {
  override name = 'TjdftAnswerError';
}

export interface TjdftEnvelope {
  result: unknown;
  pageInfo: { current: number; last: number } | null;
  /** The envelope's `messages`, as text (strings, or `{mensagem|message|texto}` objects). */
  messages: string[];
}

/** The court answered with a message instead of data, classified by its words (messages.ts). */
export class TjdftMessageError extends TjdftAnswerError {
  override name = 'TjdftMessageError';
  readonly kind: Exclude<CourtMessage, 'not_found'>;
  readonly text: string;
  constructor(kind: Exclude<CourtMessage, 'not_found'>, text: string) {
    super(MESSAGE_FAILURES[kind].why);
    this.kind = kind;
    this.text = text;
  }
}

function messagesOf(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((m) =>
      typeof m === 'string'
        ? m
        : m && typeof m === 'object'
          ? ((m as Record<string, unknown>).mensagem ?? (m as Record<string, unknown>).message ?? (m as Record<string, unknown>).texto)
          : null,
    )
    .filter((m): m is string => typeof m === 'string' && m.trim() !== '');
}

/**
 * What the envelope's messages say when it holds no data (issue 52): nothing, or "not found" → the
 * empty answer stands; anything else is thrown (a known refusal, or an unknown message to quote).
 */
export function emptyAnswerMessage(envelope: TjdftEnvelope): void {
  const text = envelope.messages.join(' ');
  const kind = classifyMessage(text);
  if (kind !== null && kind !== 'not_found') throw new TjdftMessageError(kind, text);
}

/** The envelope's `result` and paging; `status != "ok"` or another shape throws. */
export function envelopeOf(body: unknown): TjdftEnvelope {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TjdftAnswerError('the answer is not an object');
  const b = body as Record<string, unknown>;
  const messages = messagesOf(b.messages);
  if (b.status !== 'ok') {
    // The messages decide what the refusal is; a "not ok" without a known sentence is an error of the court's.
    const kind = classifyMessage(messages.join(' '));
    if (kind !== null && kind !== 'not_found') throw new TjdftMessageError(kind, messages.join(' '));
    throw new TjdftAnswerError(`status is ${JSON.stringify(b.status)}, not "ok"`);
  }
  if (!('result' in b)) throw new TjdftAnswerError('the answer has no result');
  const p = b.pageInfo as Record<string, unknown> | undefined | null;
  const pageInfo =
    p && typeof p === 'object' && Number.isInteger(p.current) && Number.isInteger(p.last) ? { current: p.current as number, last: p.last as number } : null;
  return { result: b.result, pageInfo, messages };
}

/** `result[0].idProcesso` of `/v1/processos?numeroProcesso=`; null when the result is empty (not found). */
export function processIdOf(result: unknown): string | null {
  if (!Array.isArray(result)) throw new TjdftAnswerError('the search result is not a list');
  if (result.length === 0) return null;
  const id = (result[0] as Record<string, unknown>)?.idProcesso;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_=-]+$/.test(id)) throw new TjdftAnswerError('the first hit has no usable idProcesso');
  return id;
}

/** A name that may come as a string or as `{descricao|nome}`. */
function named(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of ['descricao', 'nome', 'orgaoJulgador']) if (typeof o[k] === 'string' && (o[k] as string).trim()) return (o[k] as string).trim();
  }
  return null;
}

/** ISO 8601 with or without a zone, or a bare day; a local time is Brasília's. */
function isoOfTjdft(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (isoDayOf(t)) return t;
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(t) && !Number.isNaN(Date.parse(t))) return t;
  return brasiliaInstantOfLocal(t);
}

export interface TjdftDados {
  classe: string | null;
  assuntos: string[];
  orgao: string | null;
  foro: string | null;
  distribuidoEm: string | null;
  segredo: boolean;
}

/** `/v1/processos/{id}/dados`. */
export function dadosOf(result: unknown): TjdftDados {
  if (!result || typeof result !== 'object' || Array.isArray(result)) throw new TjdftAnswerError('dados is not an object');
  const r = result as Record<string, unknown>;
  const leaf = subjectLeaf(named(r.assunto));
  return {
    classe: named(r.classeJudicial),
    assuntos: leaf ? [leaf] : [],
    orgao: named(r.orgaoJulgador),
    foro: named(r.jurisdicao),
    distribuidoEm: isoOfTjdft(r.dataDistribuicao),
    segredo: r.segredoJustica === true || r.segredoJustica === 'true',
  };
}

export interface TjdftParticipant {
  nome: string;
  /** Null when neither `tipo` nor the text's parentheses give one (an anomaly). */
  tipo: string | null;
  documento: string | null;
  oab: ConsultaLawyer['oab'];
}

/**
 * One `result[]` item of a pole's page: `participante` is `NAME - OAB UF<num> - CPF: 000.000.001-91 (TIPO)`
 * (each middle part optional), read from the right; `nome` and `tipo`, when present, win. A participant
 * with no role keeps its name (`tipo: null`), an OAB that does not read is null; each is an anomaly. Null
 * (an anomaly too) only when it has no name at all.
 */
export function participantOf(item: unknown, anomalies = new Anomalies()): TjdftParticipant | null {
  if (!item || typeof item !== 'object') throw new TjdftAnswerError('a participant is not an object');
  const o = item as Record<string, unknown>;
  let text = typeof o.participante === 'string' ? o.participante.trim() : '';
  let tipo = typeof o.tipo === 'string' ? o.tipo.trim() : '';
  const role = /\(([^()]+)\)\s*$/.exec(text);
  if (role) {
    tipo ||= role[1]!.trim();
    text = text.slice(0, role.index).trim();
  }
  let documento: string | null = null;
  const doc = /\s+-\s+(CPF|CNPJ):\s*([\dXx*./-]+)\s*$/.exec(text);
  if (doc) {
    // Whole → bare digits; masked (X or *) → as shown, never completed.
    documento = /[Xx*]/.test(doc[2]!) ? doc[2]! : doc[2]!.replace(/\D/g, '');
    text = text.slice(0, doc.index).trim();
  }
  let oab: ConsultaLawyer['oab'] = null;
  const reg = /\s+-\s+OAB\s+([A-Z]{2}\s*\d[\d.]*(?:-?[A-Z])?)\s*$/.exec(text);
  if (reg) {
    const parsed = fromPage('oab', reg[1]!);
    if (parsed) oab = { uf: parsed.uf, numero: parsed.canonical.slice(2) };
    else anomalies.note('advogado.oab');
    text = text.slice(0, reg.index).trim();
  }
  const nome = (typeof o.nome === 'string' && o.nome.trim()) || text;
  if (!nome) {
    anomalies.note('parte.linha');
    return null;
  }
  if (!tipo) anomalies.note('parte.tipo');
  return { nome, tipo: tipo || null, documento, oab };
}

const REPRESENTATIVES = /^(ADVOGAD[OA]|PROCURADOR|DEFENSOR|REPRESENTANTE)/i;

/** A pole's participants in order: each lawyer joins the party above it (lawyers follow the party they represent). */
export function partiesOfPole(polo: ConsultaParty['polo'], items: TjdftParticipant[]): ConsultaParty[] {
  const parties: ConsultaParty[] = [];
  for (const p of items) {
    const last = parties.at(-1);
    if (p.tipo !== null && REPRESENTATIVES.test(p.tipo) && last) {
      last.advogados.push({ nome: p.nome, oab: p.oab });
      continue;
    }
    const digits = p.documento && /^\d+$/.test(p.documento) ? p.documento : null;
    parties.push({
      polo,
      tipo: p.tipo,
      nome: p.nome,
      documento: p.documento,
      tipoPessoa: digits?.length === 11 ? 'FISICA' : digits?.length === 14 ? 'JURIDICA' : null,
      advogados: [],
    });
  }
  return parties;
}
