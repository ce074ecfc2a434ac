/**
 * One OAB named in a request, in either of the shapes integrators send: `oab_estado` + `oab_numero`
 * (separate fields, as spec §4.4 names them) or `oab` (one string in any spelling platform/identifiers
 * /oab.ts reads: `SP123456`, `123.456/SP`, `OAB/SP 123456`). Both at once must agree.
 */
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';
import { parseOab, parseOabParts, type Oab } from '../identifiers/oab.ts';

export const OabFields = {
  oab_estado: Type.Optional(Type.String({ minLength: 1, maxLength: 4, description: 'UF of the OAB section, e.g. `SP` (with `oab_numero`).' })),
  oab_numero: Type.Optional(
    Type.String({ minLength: 1, maxLength: 12, description: 'Registration number, e.g. `123456`, `123.456` or `123456A` (with `oab_estado`).' }),
  ),
  oab: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'The OAB in one string instead: `SP123456`, `123456/SP`, `OAB/SP 123.456`.' })),
};

export function oabOfRequest(v: { oab_estado?: string; oab_numero?: string; oab?: string }, where: 'query' | 'body'): Oab {
  const parts = v.oab_estado !== undefined || v.oab_numero !== undefined;
  if (parts && (v.oab_estado === undefined || v.oab_numero === undefined)) {
    const missing = v.oab_estado === undefined ? 'oab_estado' : 'oab_numero';
    throw new ApiError('MISSING_PARAMETER', `Send \`oab_estado\` and \`oab_numero\` together (\`${missing}\` is missing).`, { field: missing, in: where });
  }
  const fromParts = parts ? parseOabParts(v.oab_estado, v.oab_numero, { uf: 'oab_estado', numero: 'oab_numero' }) : undefined;
  const fromString = v.oab !== undefined ? parseOab(v.oab, 'oab') : undefined;
  if (fromParts && fromString && fromParts.canonical !== fromString.canonical) {
    throw new ApiError('INVALID_PARAMETER', '`oab` and `oab_estado`/`oab_numero` name different registrations; send one.', { field: 'oab', in: where });
  }
  const oab = fromParts ?? fromString;
  if (!oab)
    throw new ApiError('MISSING_PARAMETER', 'Name the lawyer: `oab_estado` + `oab_numero`, or `oab` (e.g. SP123456).', { field: 'oab_numero', in: where });
  return oab;
}
