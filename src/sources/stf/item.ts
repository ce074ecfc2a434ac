/**
 * One item of the STF's `POST /publicacoes` as the real API sends it (reference/upstream/real/README.md
 * §6, capture stf-1.json): 18 keys; `divulgacao` a Brasília wall time without a zone
 * (`2026-08-13T20:32:00.645`, 0–3 decimals or none); `publicacao` an ISO day or null (divulged, not
 * yet published); `envolvidos[]` with `polo` ATIVO, PASSIVO or INTERESSADO and `identificacoes` holding
 * nothing, one OAB (`OAB 27882/PA`, `OAB 076166/RJ`) or one string listing several
 * (`OAB's (76005A/GO, 130660/PR, 66470/DF)`), read by the one OAB parser (platform/identifiers/oab.ts).
 * Dates in another spelling are refused (StfItemError), never read as null: a silent null is how a
 * format change went unseen before.
 */
import { brasiliaInstantOfLocal, isoDayOf } from '../../platform/format.ts';
import { parseOabList } from '../../platform/identifiers/oab.ts';
import type { StfParty, StfPublicationRecord } from '../../platform/ports/stf.ts';
import { foldText } from '../../platform/text.ts';

export class StfItemError extends Error {}

/** Lawyers are filed as `ADVOGADO(A/S)` (older listings: `ADV.(A/S)`). */
const LAWYER_CATEGORY = /^ADV/i;
/** What the STF files as ADVOGADO(A/S) when a side has none: not a lawyer. */
const NO_LAWYER = new Set(['sem representacao nos autos']);

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

function party(e: unknown): StfParty {
  const r = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
  const nome = typeof r.nome === 'string' ? r.nome : '';
  const categoria = typeof r.categoria === 'string' ? r.categoria : '';
  const identificacoes = Array.isArray(r.identificacoes) ? r.identificacoes.filter((i): i is string => typeof i === 'string') : [];
  const oabs = identificacoes.flatMap((i) => parseOabList(i).oabs).map((o) => ({ uf: o.uf, numero: `${o.numero}${o.suffix ?? ''}` }));
  const unique = [...new Map(oabs.map((o) => [`${o.uf}${o.numero}`, o])).values()];
  const papel = !LAWYER_CATEGORY.test(categoria) ? 'parte' : NO_LAWYER.has(foldText(nome)) ? 'sem_advogado' : 'advogado';
  return { nome, polo: text(r.polo), categoria, identificacoes, oabs: unique, papel };
}

/** The item read into the port's record; StfItemError when it lacks its id or text, or a date is not in the API's spelling. */
export function readStfItem(item: unknown): StfPublicationRecord {
  const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const id = text(r.id);
  if (!id || typeof r.texto !== 'string') throw new StfItemError('an item without id or texto');
  const divulgadoEm = brasiliaInstantOfLocal(r.divulgacao);
  if (!divulgadoEm) throw new StfItemError(`item ${id}: divulgacao ${JSON.stringify(r.divulgacao)} is not an ISO local date-time (2026-08-13T20:32:00.645)`);
  const publicacao = r.publicacao === null || r.publicacao === undefined ? null : isoDayOf(r.publicacao);
  if (publicacao === null && r.publicacao !== null && r.publicacao !== undefined) {
    throw new StfItemError(`item ${id}: publicacao ${JSON.stringify(r.publicacao)} is neither null nor an ISO day (2026-08-14)`);
  }
  return {
    id,
    processo: text(r.processo) ?? '',
    processoId: text(r.processoId),
    tipo: text(r.tipo) ?? '',
    relator: text(r.relator),
    divulgacao: divulgadoEm.slice(0, 10),
    divulgadoEm,
    publicacao,
    html: r.texto,
    codigo: text(r.codigo),
    observacao: text(r.observacao),
    responsavel: text(r.responsavel),
    tipoConteudo: text(r.tipoConteudo),
    confidencialidade: text(r.confidencialidade),
    colegiado: text(r.colegiado),
    sessao: text(r.sessao),
    descricao: text(r.descricao),
    tipoPronunciamentoId: text(r.tipoPronunciamentoId),
    envolvidos: (Array.isArray(r.envolvidos) ? r.envolvidos : []).map(party),
    raw: item,
  };
}
