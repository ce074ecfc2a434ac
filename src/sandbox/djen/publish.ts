/**
 * Publishing on demand (tests, demos): a communication dated today for a case number — a sandbox
 * case (its court, órgão, class, parties and lawyers are the defaults) or any valid CNJ number with
 * a court (`siglaTribunal`, or the court the number names). It is visible at once in searches, in
 * today's caderno and at `/comunicacao/{id}`.
 */
import { courtBySigla, type Court } from '../../platform/courts/table.ts';
import { cnjCourtSigla, isValidCnj, parseCnj } from '../../platform/identifiers/cnj.ts';
import { isUf } from '../../platform/identifiers/uf.ts';
import { hash32, Random } from '../data/prng.ts';
import type { SandboxCase } from '../data/model.ts';
import { brasiliaDayOf } from './dates.ts';
import { hashOfId } from './ids.ts';
import type { Addressee, Communication, LawyerRef, Meio, Polo, TextStyle } from './model.ts';
import { oabDigits, OAB_SPELLINGS, type OabSpelling } from './oab.ts';
import { linkOf, styleOf } from './records.ts';
import type { DjenStore } from './store.ts';

export interface DjenPublishLawyer {
  nome: string;
  uf: string;
  /** Digits (dots and leading zeros are ignored): the registration itself. */
  numero: string;
  /** How `numero_oab` prints it (oab.ts); default 'plain'. */
  spelling?: OabSpelling;
}

export interface DjenPublishParty {
  nome: string;
  polo: Polo;
}

export interface DjenPublishInput {
  /** 20 digits or masked. */
  numeroProcesso: string;
  /** Required for a number outside the sandbox whose J.TR names no court; default: the case's court. */
  siglaTribunal?: string;
  /** Default: the sandbox case's lawyers (none for other numbers). */
  advogados?: DjenPublishLawyer[];
  /** Default: the sandbox case's parties (none for other numbers). */
  destinatarios?: DjenPublishParty[];
  /** Verbatim texto; default: rendered in the court's style. */
  texto?: string;
  /** Default 'Intimação'. */
  tipoComunicacao?: string;
  /** Default 'DESPACHO/DECISÃO'. */
  tipoDocumento?: string;
  /** Default 'E' for an Edital, else 'D'. */
  meio?: Meio;
  /** false: published already cancelled. Default true. */
  ativo?: boolean;
}

export class DjenPublishError extends RangeError {}

function fail(message: string): never {
  throw new DjenPublishError(`djen publish: ${message}`);
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const KEYS = new Set(['numeroProcesso', 'siglaTribunal', 'advogados', 'destinatarios', 'texto', 'tipoComunicacao', 'tipoDocumento', 'meio', 'ativo']);

function lawyerOf(raw: unknown, i: number): LawyerRef {
  const l = (raw ?? {}) as Partial<DjenPublishLawyer>;
  if (!isText(l.nome)) fail(`advogados[${i}].nome is required`);
  const uf = typeof l.uf === 'string' ? l.uf.trim().toUpperCase() : '';
  if (!isUf(uf)) fail(`advogados[${i}].uf must be a Brazilian UF`);
  const numero = typeof l.numero === 'string' || typeof l.numero === 'number' ? oabDigits(String(l.numero)) : '';
  if (!/^\d{1,7}$/.test(numero) || /[^\d.\s]/.test(String(l.numero))) fail(`advogados[${i}].numero must be 1 to 7 digits`);
  if (l.spelling !== undefined && !OAB_SPELLINGS.includes(l.spelling)) fail(`advogados[${i}].spelling must be one of ${OAB_SPELLINGS.join(', ')}`);
  return { nome: l.nome.trim().toUpperCase(), uf, numero, spelling: l.spelling ?? 'plain' };
}

function partyOf(raw: unknown, i: number): Addressee {
  const p = (raw ?? {}) as Partial<DjenPublishParty>;
  if (!isText(p.nome)) fail(`destinatarios[${i}].nome is required`);
  if (p.polo !== 'A' && p.polo !== 'P') fail(`destinatarios[${i}].polo must be "A" or "P"`);
  return { nome: p.nome.trim().toUpperCase(), polo: p.polo, tipo: p.polo === 'A' ? 'AUTOR' : 'RÉU', advogados: [] };
}

function list<T>(raw: unknown, name: string, max: number, each: (v: unknown, i: number) => T): T[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length > max) fail(`${name} must be an array of at most ${max}`);
  return raw.map(each);
}

function caseParties(c: SandboxCase): Addressee[] {
  return c.partes
    .filter((p) => p.polo !== 'OUTROS')
    .map((p) => ({ nome: p.person.nome.toUpperCase(), polo: p.polo === 'ATIVO' ? 'A' : 'P', tipo: p.tipo, advogados: [] }));
}

function caseLawyers(c: SandboxCase): LawyerRef[] {
  const seen = new Set<string>();
  const out: LawyerRef[] = [];
  for (const l of c.partes.flatMap((p) => p.advogados)) {
    if (!l.oab || seen.has(l.oab.uf + l.oab.numero)) continue;
    seen.add(l.oab.uf + l.oab.numero);
    out.push({ nome: l.nome.toUpperCase(), uf: l.oab.uf, numero: l.oab.numero, spelling: 'plain' });
  }
  return out;
}

function courtFor(numero: string, sigla: unknown, known: SandboxCase | undefined): Court {
  if (sigla !== undefined && !isText(sigla)) fail('siglaTribunal must be a non-empty string');
  if (known && sigla === undefined) return known.court;
  const cnj = parseCnj(numero);
  const name = (sigla as string | undefined)?.trim().toUpperCase() ?? cnjCourtSigla(cnj.segment, cnj.tribunal);
  const court = name ? courtBySigla(name) : undefined;
  if (!court) fail(name ? `unknown siglaTribunal "${name}"` : 'siglaTribunal is required: the number names no court');
  return court;
}

const styleOfCourt = (court: Court): TextStyle => (court.sigla === 'TJRJ' ? 'plain' : court.sistemaAtual === 'eproc' ? 'eproc' : 'pje');

/** Validates `input` (from code or JSON) and stores the communication; throws DjenPublishError. */
export function publishCommunication(store: DjenStore, input: unknown, now: number): Communication {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail('expected an object');
  const r = input as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!KEYS.has(key)) fail(`unknown field "${key}" (known: ${[...KEYS].join(', ')})`);
  if (typeof r.numeroProcesso !== 'string' || !isValidCnj(r.numeroProcesso)) fail('numeroProcesso must be a valid CNJ number (20 digits or masked)');
  const numero = parseCnj(r.numeroProcesso).digits;
  const known = store.dataset.getCase(numero);
  const court = courtFor(numero, r.siglaTribunal, known);
  const tipoComunicacao =
    r.tipoComunicacao === undefined ? 'Intimação' : isText(r.tipoComunicacao) ? r.tipoComunicacao.trim() : fail('tipoComunicacao must be a non-empty string');
  const tipoDocumento =
    r.tipoDocumento === undefined ? 'DESPACHO/DECISÃO' : isText(r.tipoDocumento) ? r.tipoDocumento.trim() : fail('tipoDocumento must be a non-empty string');
  if (r.meio !== undefined && r.meio !== 'D' && r.meio !== 'E') fail('meio must be "D" or "E"');
  if (r.ativo !== undefined && typeof r.ativo !== 'boolean') fail('ativo must be a boolean');
  if (r.texto !== undefined && typeof r.texto !== 'string') fail('texto must be a string');
  const advogados = list(r.advogados, 'advogados', 15, lawyerOf) ?? (known ? caseLawyers(known) : []);
  const destinatarios = list(r.destinatarios, 'destinatarios', 20, partyOf) ?? (known ? caseParties(known) : []);

  const id = store.nextId();
  const rng = new Random(store.dataset.seed, 'djen-item', id);
  const instance = known?.instances.filter((i) => i.movements[0].at <= now).at(-1) ?? known?.instances[0];
  const style = known ? styleOf(store.dataset, known) : styleOfCourt(court);
  const uf = instance?.orgao.uf ?? (court.ufs[0] === 'BR' ? 'DF' : court.ufs[0]);
  return store.add({
    id,
    hash: hashOfId(store.dataset.seed, id),
    day: brasiliaDayOf(now),
    createdAt: now,
    tribunal: court.sigla,
    uf,
    orgao: instance
      ? { id: instance.orgao.codigo, nome: instance.orgao.nome }
      : { id: 90_000 + (hash32(court.sigla) % 9_000), nome: `Órgão Fictício do Sandbox - ${court.sigla}` },
    numero,
    classe: instance?.classe ?? { codigo: 7, nome: 'Procedimento Comum Cível' },
    relator: null,
    tipoComunicacao,
    tipoDocumento,
    meio: (r.meio as Meio | undefined) ?? (tipoComunicacao === 'Edital' ? 'E' : 'D'),
    numeroComunicacao: rng.int(1, 99_999),
    cancelamento: r.ativo === false ? { at: now, motivo: 'Cancelada pelo tribunal (simulação)' } : null,
    destinatarios,
    outrosAdvogados: advogados,
    style,
    corpo: ['Fica(m) a(s) parte(s) intimada(s) do ato em epígrafe, nos termos da legislação vigente.'],
    textoLivre: (r.texto as string | undefined) ?? null,
    link: linkOf(style, court.sigla, numero, rng),
  });
}
