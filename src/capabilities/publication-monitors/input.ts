/**
 * What a publication monitor follows, from its create body: a term (`termo`), an OAB (`oab` or
 * `oab_estado` + `oab_numero`) or a case (`numero_cnj`). `tipo` may be left out (inferred from the one
 * given) or name the kind while the value comes in `termo` (`{"tipo": "OAB", "termo": "SP123456"}`).
 * Two kinds at once, or a `tipo` that contradicts the field given, is 400 INVALID_PARAMETER. Also the
 * courts a monitor listens to (`tribunais`, shared with intimação monitors).
 */
import type { PublicationMonitorType } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { formatCnj, parseCnj } from '../../platform/identifiers/cnj.ts';
import { parseOab } from '../../platform/identifiers/oab.ts';
import { foldText } from '../../platform/text.ts';
import { requireCourtSigla } from '../../platform/courts/table.ts';
import { oabOfRequest } from '../../platform/http/oab-params.ts';
import type { MonitorTarget } from './store.ts';

export const MIN_TERM_LENGTH = 3;
export const MAX_TERM_LENGTH = 200;

export interface TargetInput {
  tipo?: PublicationMonitorType;
  termo?: string;
  oab?: string;
  oab_estado?: string;
  oab_numero?: string;
  numero_cnj?: string;
}

export function targetOf(body: TargetInput): MonitorTarget {
  const oabGiven = body.oab !== undefined || body.oab_estado !== undefined || body.oab_numero !== undefined;
  const given: PublicationMonitorType[] = [];
  if (oabGiven) given.push('OAB');
  if (body.numero_cnj !== undefined) given.push('PROCESSO');
  if (given.length > 1) throw conflict(`\`${given.join('` and `')}\` fields were both given; a monitor follows one thing: create one per kind.`, 'numero_cnj');
  const [specific] = given;
  const tipo = body.tipo ?? specific ?? (body.termo !== undefined ? 'TERMO' : undefined);
  if (!tipo)
    throw new ApiError('MISSING_PARAMETER', 'Say what to follow: `termo`, an OAB (`oab` or `oab_estado` + `oab_numero`) or `numero_cnj`.', {
      field: 'termo',
      in: 'body',
    });
  if (specific && specific !== tipo) throw conflict(`\`tipo\` ${tipo} contradicts the ${specific} field given.`, 'tipo');
  if (specific && body.termo !== undefined) throw conflict(`Send the ${specific} in its own field or in \`termo\`, not both.`, 'termo');
  if (tipo === 'OAB') {
    const oab = oabGiven ? oabOfRequest(body, 'body') : parseOab(required(body.termo, 'oab'), 'termo');
    return { tipo, valor: oab.canonical, termo: oab.canonical };
  }
  if (tipo === 'PROCESSO') {
    const cnj = body.numero_cnj !== undefined ? parseCnj(body.numero_cnj, 'numero_cnj') : parseCnj(required(body.termo, 'numero_cnj'), 'termo');
    return { tipo, valor: cnj.digits, termo: formatCnj(cnj.digits) };
  }
  return termTarget(required(body.termo, 'termo'));
}

/** A free term: trimmed, at least MIN_TERM_LENGTH letters or digits once folded; `valor` is the folded form (accents and case ignored). */
function termTarget(raw: string): MonitorTarget {
  const termo = raw.trim().replace(/\s+/g, ' ');
  const valor = foldText(termo);
  if (valor.replace(/ /g, '').length < MIN_TERM_LENGTH) {
    throw new ApiError('INVALID_PARAMETER', `\`termo\` needs at least ${MIN_TERM_LENGTH} letters or digits (accents, case and punctuation are ignored).`, {
      field: 'termo',
      in: 'body',
    });
  }
  if (termo.length > MAX_TERM_LENGTH)
    throw new ApiError('INVALID_PARAMETER', `\`termo\` is longer than ${MAX_TERM_LENGTH} characters.`, { field: 'termo', in: 'body' });
  return { tipo: 'TERMO', valor, termo };
}

function required(v: string | undefined, field: string): string {
  if (v === undefined) throw new ApiError('MISSING_PARAMETER', `Missing \`${field}\`.`, { field, in: 'body' });
  return v;
}

function conflict(message: string, field: string): ApiError {
  return new ApiError('INVALID_PARAMETER', message, { field, in: 'body' });
}

/** Court siglas of a request, validated (422 UNKNOWN_COURT naming the item), deduplicated; empty means every court (null). */
export function courtFilter(siglas: readonly string[] | null | undefined, field = 'tribunais'): string[] | null | undefined {
  if (siglas === undefined || siglas === null) return siglas;
  const courts = [...new Set(siglas.map((s, i) => requireCourtSigla(s.trim(), `${field}.${i}`).sigla))].sort();
  return courts.length === 0 ? null : courts;
}
