/**
 * Identifiers read from a page someone else printed (a court's consultation page, issue 44): an OAB
 * with an unknown UF, a CNJ number with wrong check digits or a CPF that fails its digits is what that
 * page shows, not the caller's input. The parsers of this folder throw an ApiError (`400 INVALID_OAB`…)
 * meant for the caller; on a page that would tell an integrator that *their* request is wrong. Every
 * identifier a page parser reads goes through `fromPage`: the parsed value, or null (the parser keeps
 * the line, counts an anomaly), never an ApiError.
 */
import { ApiError } from '../errors.ts';
import { parseCnj, type Cnj } from './cnj.ts';
import { parseCpfCnpj, type CpfCnpj } from './cpf-cnpj.ts';
import { parseOab, type Oab } from './oab.ts';

const PARSERS = { oab: parseOab, cnj: parseCnj, cpfCnpj: parseCpfCnpj } as const;

interface Parsed {
  oab: Oab;
  cnj: Cnj;
  cpfCnpj: CpfCnpj;
}

/** An identifier as a page printed it: the parsed value, or null when it is not one (never an ApiError). */
export function fromPage<K extends keyof Parsed>(kind: K, text: string): Parsed[K] | null {
  try {
    return (PARSERS[kind] as (input: unknown) => Parsed[K])(text);
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}
