/**
 * The simulated DJE eleitoral consultation service under `<sandbox>/dje/dje-consulta/rest`, in the
 * route shape wave2.md §C infers from the same product at TJSC, with the tribunal as `trib`:
 *   GET /diario/dia?dia=DD/MM/AAAA&trib=TSE      `{"yyyy-mm-dd": [{"edicao": N, "extra": false}]}`
 *   GET /diario/caderno?edicao=N&trib=TRE-SP     the edition's PDF (application/pdf)
 * A malformed `dia` or an unknown `trib` is a 400 with a plain-text message (as a Java back end
 * answers); an unknown edition is a 404.
 * Knobs (`sandbox.dje`, `/_sandbox/dje`): `holidays` (days without editions), `truncatePdf` (PDFs cut
 * in half, with a 200). `POST /_sandbox/dje/edicao-extra {tribunal, parte?, advogado?, oab?}` publishes
 * an extra edition today. The fault layer (upstream `dje`) adds latency, 5xx, 429, hangs, cut bodies.
 */
import { isoDayOfBr } from '../../platform/format.ts';
import { parseOab } from '../../platform/identifiers/oab.ts';
import { parseIsoDay } from '../djen/dates.ts';
import { jsonResponse, type SimRequest, type SimResponse } from '../http.ts';
import { DJE_COURTS, type DjeEdition, type DjeGazette } from './editions.ts';
import { renderEdition } from './pdf.ts';

export const DJE_API_PREFIX = '/dje-consulta/rest';

export class DjeKnobError extends RangeError {}

export interface DjeKnobs {
  holidays?: string[];
  truncatePdf?: boolean;
}

export class SandboxDje {
  readonly gazette: DjeGazette;
  #knobs: Required<DjeKnobs> = { holidays: [], truncatePdf: false };
  readonly #pdfs = new Map<string, Promise<Buffer>>();

  constructor(gazette: DjeGazette) {
    this.gazette = gazette;
  }

  set(knobs: DjeKnobs): void {
    for (const k of Object.keys(knobs))
      if (k !== 'holidays' && k !== 'truncatePdf') throw new DjeKnobError(`dje: unknown setting "${k}" (known: holidays, truncatePdf)`);
    const holidays = knobs.holidays ?? [];
    if (!Array.isArray(holidays) || holidays.some((d) => typeof d !== 'string' || parseIsoDay(d) === null))
      throw new DjeKnobError('dje: holidays must be a list of yyyy-mm-dd days');
    if (knobs.truncatePdf !== undefined && typeof knobs.truncatePdf !== 'boolean') throw new DjeKnobError('dje: truncatePdf must be a boolean');
    this.#knobs = { holidays, truncatePdf: knobs.truncatePdf ?? false };
    this.gazette.holidays = new Set(holidays.map((d) => parseIsoDay(d)!));
  }

  get(): Required<DjeKnobs> {
    return { ...this.#knobs, holidays: [...this.#knobs.holidays] };
  }

  reset(): void {
    this.set({});
  }

  /** `POST /_sandbox/dje/edicao-extra`: an extra edition published today. */
  publish(body: unknown): { tribunal: string; edicao: number; numeroProcesso: string } {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof b.tribunal !== 'string') throw new DjeKnobError('dje: tribunal is required (TSE or TRE-<UF>)');
    const oab = b.oab === undefined ? undefined : parseOab(b.oab, 'oab');
    const e = this.gazette.publishExtra(b.tribunal, {
      parte: typeof b.parte === 'string' ? b.parte : undefined,
      advogado: typeof b.advogado === 'string' ? b.advogado : undefined,
      oab,
    });
    return { tribunal: e.tribunal, edicao: e.numero, numeroProcesso: e.materias[0].numeroCnj };
  }

  pdf(e: DjeEdition): Promise<Buffer> {
    const key = `${e.tribunal}:${e.numero}`;
    let p = this.#pdfs.get(key);
    if (!p) {
      p = renderEdition(e);
      if (this.#pdfs.size > 400) this.#pdfs.delete(this.#pdfs.keys().next().value!);
      this.#pdfs.set(key, p);
    }
    return p;
  }

  get truncatePdf(): boolean {
    return this.#knobs.truncatePdf;
  }
}

const text = (status: number, message: string): SimResponse => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: Buffer.from(message),
});

/** "10/03/2026" (exactly) → epoch day, or null. */
function brDayNumber(v: string | null): number | null {
  const iso = v && /^\d{2}\/\d{2}\/\d{4}$/.test(v) ? isoDayOfBr(v) : null;
  return iso ? parseIsoDay(iso) : null;
}

export function djeHandler(dje: SandboxDje) {
  return async (req: SimRequest): Promise<SimResponse> => {
    if (req.method !== 'GET') return text(405, 'Method Not Allowed');
    if (!req.path.startsWith(DJE_API_PREFIX)) return text(404, 'Not Found');
    const route = req.path.slice(DJE_API_PREFIX.length);
    const trib = req.query.get('trib') ?? '';
    if (route === '/diario/dia' || route === '/diario/caderno') {
      if (!DJE_COURTS.includes(trib)) return text(400, `Tribunal inválido: ${trib}`);
    }
    if (route === '/diario/dia') {
      const day = brDayNumber(req.query.get('dia'));
      if (day === null) return text(400, 'Parâmetro dia inválido: use DD/MM/AAAA');
      const editions = dje.gazette.editions(trib, day);
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      return jsonResponse(200, { [iso]: editions.map((e) => ({ edicao: e.numero, extra: e.extra })) });
    }
    if (route === '/diario/caderno') {
      const numero = Number(req.query.get('edicao'));
      const edition = Number.isInteger(numero) && numero > 0 ? dje.gazette.edition(trib, numero) : null;
      if (!edition) return text(404, 'Edição não encontrada');
      const pdf = await dje.pdf(edition);
      return {
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="dje-${trib}-${numero}.pdf"` },
        body: dje.truncatePdf ? pdf.subarray(0, pdf.length >> 1) : pdf,
      };
    }
    return text(404, 'Not Found');
  };
}
