/**
 * The administrative bodies Tramita covers (GET /v1/orgaos-administrativos): a JSON file shipped in
 * the project (config/orgaos-administrativos.json, TRAMITA_ORGAOS_FILE) that says its source and
 * date. A NUP's first five digits are its protocol unit (reference/upstream/nup.md §1), which names
 * the body; a unit of no listed body is 422 BODY_NOT_COVERED. Read and checked once, at start: a bad
 * file stops the process with one line naming the setting.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Nup } from '../../platform/identifiers/nup.ts';

export interface AdministrativeBody {
  /** Protocol-unit codes (five digits) that open this body's NUPs. */
  codigos: string[];
  sigla: string;
  nome: string;
  esfera: string;
  natureza: string;
}

export interface BodyList {
  fonte: string;
  fonteUrl: string | null;
  /** yyyy-mm-dd: when the list was compiled. */
  data: string;
  /** Where lookups of these bodies go (PROTOCOLO_INTEGRADO). */
  consulta: string;
  orgaos: AdministrativeBody[];
}

export class Bodies {
  readonly list: BodyList;
  readonly #byUnit = new Map<string, AdministrativeBody>();

  constructor(list: BodyList) {
    this.list = list;
    for (const b of list.orgaos) for (const c of b.codigos) this.#byUnit.set(c, b);
  }

  /** The body of the NUP's protocol unit; 422 BODY_NOT_COVERED when none is listed. */
  of(nup: Nup, field: string): AdministrativeBody {
    const unit = nup.digits.slice(0, 5);
    const body = this.#byUnit.get(unit);
    if (!body)
      throw new ApiError('BODY_NOT_COVERED', `NUP ${nup.masked}: protocol unit ${unit} is not one of the bodies of GET /v1/orgaos-administrativos.`, {
        field,
        unidade: unit,
      });
    return body;
  }

  /** A body by sigla (any case) or by one of its unit codes. */
  find(key: string): AdministrativeBody | undefined {
    const k = key.trim();
    return this.#byUnit.get(k) ?? this.list.orgaos.find((b) => b.sigla.toUpperCase() === k.toUpperCase());
  }
}

const text = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Reads and checks the file; throws ConfigError naming TRAMITA_ORGAOS_FILE. */
export function loadBodies(file: string): Bodies {
  const fail = (why: string) => new ConfigError(`TRAMITA_ORGAOS_FILE (${file}): ${why}`);
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw fail(`cannot be read as JSON (${(e as Error).message})`);
  }
  if (!text(doc.fonte) || !text(doc.data) || !/^\d{4}-\d{2}-\d{2}$/.test(doc.data) || !Array.isArray(doc.orgaos)) {
    throw fail('needs "fonte", "data" (yyyy-mm-dd) and an "orgaos" array');
  }
  const seen = new Map<string, string>();
  const orgaos = doc.orgaos.map((o: Record<string, unknown>, i: number): AdministrativeBody => {
    if (!Array.isArray(o.codigos) || o.codigos.length === 0 || !o.codigos.every((c) => typeof c === 'string' && /^\d{5}$/.test(c)))
      throw fail(`orgaos[${i}].codigos must be a list of five-digit protocol-unit codes`);
    if (!text(o.sigla) || !text(o.nome)) throw fail(`orgaos[${i}] needs "sigla" and "nome"`);
    for (const c of o.codigos as string[]) {
      if (seen.has(c)) throw fail(`protocol unit ${c} is listed for both ${seen.get(c)} and ${o.sigla}`);
      seen.set(c, o.sigla);
    }
    return {
      codigos: o.codigos as string[],
      sigla: o.sigla,
      nome: o.nome,
      esfera: text(o.esfera) ? o.esfera : 'FEDERAL',
      natureza: text(o.natureza) ? o.natureza : 'não informada',
    };
  });
  return new Bodies({
    fonte: doc.fonte,
    fonteUrl: text(doc.fonteUrl) ? doc.fonteUrl : null,
    data: doc.data,
    consulta: text(doc.consulta) ? doc.consulta : 'PROTOCOLO_INTEGRADO',
    orgaos,
  });
}
