/**
 * Gazette days read whole into the publication store (issue 16): STF by divulgação day, each electoral
 * court by the editions of its day. A day before today is final once recorded in `gazette_days`, so
 * the ingest is resumable (a run that stops mid-way leaves the days it finished) and idempotent (a
 * publication is stored once by id; an edition once by `<tribunal>:<número>`). Today is read again
 * when its copy is older than TODAY_FRESH_MS (editions extra, late divulgação). An STF day read while
 * some items were divulged but not yet published is read again once a later edition is out, so each
 * keeps its publication day (#stfEditions). Every publication goes
 * through the one ingest (publications/ingest.ts): indexed, matched against monitors, events emitted.
 * A source failure throws SourceError: the day stays unread, nothing is half-recorded as done.
 */
import { iso } from '../../platform/clock.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { eachDay, type Period } from '../../platform/http/period.ts';
import { ELECTORAL_COURTS, type ElectoralEditionRecord } from '../../platform/ports/electoral.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationIngest } from '../publications/parts.ts';
import { electoralRecord, stfRecord } from './records.ts';
import { readDays, saveDay, saveEdition, storedEditionIds } from './store.ts';

const TODAY_FRESH_MS = 30 * 60_000;

/** Every gazette Tramita ingests: the STF and each electoral court. */
export const GAZETTES: readonly string[] = ['STF', ...ELECTORAL_COURTS];

/** TRAMITA_GAZETTE_COURTS as gazettes: `all`, `none`, or the listed ones (config.ts refuses unknown names). */
export function configuredGazettes(list: readonly string[]): string[] {
  const upper = list.map((x) => x.toUpperCase());
  return upper.includes('ALL') ? [...GAZETTES] : GAZETTES.filter((g) => upper.includes(g));
}

export interface DaysSummary {
  dias: number;
  publicacoes: number;
  novas: number;
  eventos: number;
}

export class GazetteDays {
  readonly #s: Services;
  readonly #ingest: PublicationIngest;
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(s: Services, ingest: PublicationIngest) {
    this.#s = s;
    this.#ingest = ingest;
  }

  /** Today in Brasília: what a gazette calls today. */
  today(): string {
    return brasiliaDay(iso(this.#s.clock.now()))!;
  }

  /**
   * Reads every day of `period` (up to today) that `gazette` (STF, TSE, TRE-<UF>) does not have yet;
   * `refreshToday` reads today again whatever its age (the background job's rhythm). One gazette's
   * reads run one after another in this process (a search and the job never fetch a day twice at once).
   */
  async ensure(gazette: string, period: Period, o: { refreshToday?: boolean; signal?: AbortSignal } = {}): Promise<DaysSummary> {
    const previous = this.#queues.get(gazette) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.#ensure(gazette, period, o));
    this.#queues.set(gazette, run);
    try {
      return await run;
    } finally {
      if (this.#queues.get(gazette) === run) this.#queues.delete(gazette);
    }
  }

  async #ensure(gazette: string, period: Period, o: { refreshToday?: boolean; signal?: AbortSignal }): Promise<DaysSummary> {
    const today = this.today();
    // biome-ignore lint/complexity/useMathMinMax: ISO days are strings (Math.min would give NaN); the earlier one is the lesser string
    const days = eachDay({ inicio: period.inicio, fim: period.fim < today ? period.fim : today });
    const known = new Map((await readDays(this.#s.db, gazette, period)).map((r) => [r.dia, r]));
    const now = this.#s.clock.now().getTime();
    const due = days.filter((d) => {
      const at = known.get(d)?.ingerido_em;
      if (at === undefined) return true;
      return d === today && (o.refreshToday || now - Date.parse(at) > TODAY_FRESH_MS);
    });
    const stf = gazette === 'STF' ? await this.#stfEditions(days, due, known, o.signal) : { edition: null, waiting: [] };
    const total: DaysSummary = { dias: 0, publicacoes: 0, novas: 0, eventos: 0 };
    for (const day of [...due, ...stf.waiting].sort()) {
      const r =
        gazette === 'STF'
          ? await this.#stfDay(day, { edition: stf.edition, refresh: stf.waiting.includes(day) }, o.signal)
          : { ...(await this.#electoralDay(gazette, day, o.signal)), aguardando: null };
      await saveDay(this.#s.db, {
        fonte: gazette,
        dia: day,
        publicacoes: r.publicacoes,
        edicoes: r.edicoes,
        ingerido_em: iso(this.#s.clock.now()),
        aguardando_edicao: r.aguardando,
      });
      total.dias++;
      total.publicacoes += r.publicacoes;
      total.novas += r.novas;
      total.eventos += r.eventos;
    }
    return total;
  }

  /**
   * The STF's last edition (`/ultimo-dje`), asked once when a day is to be read or one waits for its
   * edition: a day read while some of its items were unpublished is read again once the last edition
   * has moved past the one of that read (`waiting`). Never a ceiling: days divulged after it are read
   * like any other. When it cannot be asked, waiting days wait for the next run (a failure matters
   * only if a day must be read anyway).
   */
  async #stfEditions(
    days: string[],
    due: string[],
    known: Map<string, { aguardando_edicao: string | null }>,
    signal?: AbortSignal,
  ): Promise<{ edition: string | null; waiting: string[] }> {
    const candidates = days.filter((d) => !due.includes(d) && known.get(d)?.aguardando_edicao != null);
    if (due.length === 0 && candidates.length === 0) return { edition: null, waiting: [] };
    let edition: string;
    try {
      edition = await this.#s.sources.stf.lastDay(signal);
    } catch (err) {
      if (due.length > 0) throw err;
      return { edition: null, waiting: [] };
    }
    return { edition, waiting: candidates.filter((d) => edition > known.get(d)!.aguardando_edicao!) };
  }

  /** One divulgação day through the one ingest; a day read again updates the items the STF has published since. */
  async #stfDay(day: string, o: { edition: string | null; refresh: boolean }, signal?: AbortSignal) {
    const source = this.#s.sources.stf;
    const items = await source.day(day, signal);
    const summary = await this.#ingest.ingest(items.map(stfRecord), source.info, { refresh: o.refresh });
    const unpublished = items.some((i) => i.publicacao === null);
    return { publicacoes: items.length, edicoes: 0, novas: summary.novas, eventos: summary.eventos, aguardando: unpublished ? (o.edition ?? day) : null };
  }

  /** Each edition of the day not stored yet: its matérias ingested, then the edition recorded (so a failure retries it whole). */
  async #electoralDay(tribunal: string, day: string, signal?: AbortSignal) {
    const source = this.#s.sources.electoral;
    const editions = await source.editions(tribunal, day, signal);
    const stored = await storedEditionIds(this.#s.db, tribunal, day);
    const out = { publicacoes: 0, edicoes: editions.length, novas: 0, eventos: 0 };
    for (const e of editions) {
      if (stored.has(editionId(e))) continue;
      const pubs = await source.publications(e, signal);
      const summary = await this.#ingest.ingest(pubs.map(electoralRecord), source.info);
      await saveEdition(this.#s.db, {
        id: editionId(e),
        tribunal: e.tribunal,
        numero: e.numero,
        data: e.data,
        extra: e.extra ? 1 : 0,
        publicacoes: pubs.length,
        sandbox: source.info.sandbox ? 1 : 0,
        raw: JSON.stringify(e.raw),
        ingerido_em: iso(this.#s.clock.now()),
      });
      out.publicacoes += pubs.length;
      out.novas += summary.novas;
      out.eventos += summary.eventos;
    }
    return out;
  }
}

export function editionId(e: Pick<ElectoralEditionRecord, 'tribunal' | 'numero'>): string {
  return `${e.tribunal}:${e.numero}`;
}
