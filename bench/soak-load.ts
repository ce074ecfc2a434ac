/**
 * The soak's traffic: one integrator's day at a steady, moderate rate (open loop: a request every
 * 1/rate s, whatever the answers take, up to a cap in flight), mixed as an integrator's calls are
 * (charged covers and movements of cases already known and of new ones, searches by CPF, term and OAB,
 * monitors created and removed, refresh requests whose events go to the account webhook, balance and
 * statement reads), and now and then an upstream fault for a few seconds through the sandbox's
 * `/_sandbox/faults`. Every answer is counted by kind and status; the 5xx are kept with their times,
 * so the end can tell the injected faults' documented 503/504 from anything else.
 */
import { generateDataset } from '../src/sandbox/data/dataset.ts';
import { isCaseVisible } from '../src/sandbox/data/model.ts';
import { Random } from '../src/sandbox/data/prng.ts';
import type { FaultRequest } from '../src/sandbox/faults.ts';

/** What the mix draws from: the sandbox's own data set, generated again here from the same seed and size. */
export interface Fixtures {
  hot: string[];
  cold: string[];
  documents: string[];
  names: string[];
  oabs: string[];
}

/** Cases looked up before the load (and again and again during it); the rest are first lookups. */
const HOT_CASES = 40;

export function fixtures(cases: number, seed: number): Fixtures {
  const dataset = generateDataset({ cases, seed });
  const now = dataset.now();
  const visible = dataset.cases.filter((c) => isCaseVisible(c, now) && c.instances.some((i) => i.movements.some((m) => m.at <= now)));
  const people = visible.flatMap((c) => c.partes.map((p) => p.person));
  const unique = <T>(xs: T[]) => [...new Set(xs)];
  return {
    hot: visible.slice(0, HOT_CASES).map((c) => c.numero),
    cold: visible.slice(HOT_CASES).map((c) => c.numero),
    documents: unique(people.filter((p) => p.tipoPessoa === 'FISICA' && p.documento).map((p) => p.documento!)).slice(0, 200),
    names: unique(people.map((p) => p.nome)).slice(0, 200),
    oabs: unique(
      visible
        .flatMap((c) => c.partes.flatMap((p) => p.advogados))
        .filter((l) => l.oab)
        .map((l) => `${l.oab!.uf}${l.oab!.numero}`),
    ).slice(0, 100),
  };
}

type Kind = 'capa' | 'capa_nova' | 'movimentacoes' | 'cpf' | 'termo' | 'oab' | 'monitor_criar' | 'monitor_remover' | 'atualizacao' | 'extrato' | 'saldo';

/** Weights of the mix (per 100 requests). */
export const MIX: { weight: number; value: Kind }[] = [
  { weight: 36, value: 'capa' },
  { weight: 3, value: 'capa_nova' },
  { weight: 17, value: 'movimentacoes' },
  { weight: 6, value: 'cpf' },
  { weight: 8, value: 'termo' },
  { weight: 4, value: 'oab' },
  { weight: 5, value: 'monitor_criar' },
  { weight: 4, value: 'monitor_remover' },
  { weight: 4, value: 'atualizacao' },
  { weight: 8, value: 'extrato' },
  { weight: 5, value: 'saldo' },
];

/** The faults injected in turn, each for a few seconds (the sandbox's knobs, src/sandbox/faults.ts). */
const FAULTS: FaultRequest[] = [
  { upstream: 'datajud', status: 503 },
  { upstream: 'portal', status: 502 },
  { upstream: 'datajud', status: 429, retryAfterSeconds: 1 },
  { upstream: 'portal', hang: true },
  { upstream: 'datajud', malformed: true },
];

/** Upstream failures as Tramita documents them (src/platform/errors.ts): uncharged 503/504. */
export const UPSTREAM_FAILURES = new Set(['503 SOURCE_UNAVAILABLE', '504 SOURCE_TIMEOUT']);

/** What the load reads of an answer's JSON body (any other field is not looked at). */
type Answer = { data?: { id?: string }; error?: { code?: string } };
export interface ServerError {
  kind: Kind;
  answer: string;
  startedAt: number;
  endedAt: number;
}
export interface FaultWindow {
  fault: FaultRequest;
  from: number;
  to: number;
}

export interface LoadSettings {
  base: string;
  sandboxBase: string;
  key: string;
  rate: number;
  faultEverySeconds: number;
  faultSeconds: number;
  maxInFlight?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SoakLoad {
  readonly counts: Record<string, Record<string, number>> = {};
  readonly serverErrors: ServerError[] = [];
  readonly faults: FaultWindow[] = [];
  answered = 0;
  skipped = 0;
  readonly #s: LoadSettings;
  readonly #f: Fixtures;
  readonly #random = new Random('soak');
  readonly #monitors: { id: string; numero: string }[] = [];
  readonly #inFlight = new Set<Promise<unknown>>();
  #nextCold = 0;
  #stopped = false;
  #running: Promise<void>[] = [];

  constructor(settings: LoadSettings, f: Fixtures) {
    this.#s = settings;
    this.#f = f;
  }

  /** The hot cases' first lookups (DataJud and the portal), before anything is measured. */
  async prime(): Promise<void> {
    for (const numero of this.#f.hot) await this.#call('capa', 'GET', `/v1/processos/cnj/${numero}`);
  }

  start(): void {
    this.#running = [this.#ticker(), this.#faulter()];
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#running);
    await Promise.all(this.#inFlight);
    await fetch(`${this.#s.sandboxBase}/_sandbox/faults`, { method: 'DELETE' });
  }

  async #ticker(): Promise<void> {
    const every = 1000 / this.#s.rate;
    const began = performance.now();
    for (let n = 0; !this.#stopped; n++) {
      const wait = began + n * every - performance.now();
      if (wait > 0) await sleep(wait);
      if (this.#stopped) break;
      if (this.#inFlight.size >= (this.#s.maxInFlight ?? 64)) {
        this.skipped++;
        continue;
      }
      const p = this.#one().finally(() => this.#inFlight.delete(p));
      this.#inFlight.add(p);
    }
  }

  async #faulter(): Promise<void> {
    for (let i = 0; !this.#stopped; i++) {
      await this.#sleepUnlessStopped(this.#s.faultEverySeconds * 1000);
      if (this.#stopped) break;
      const fault = FAULTS[i % FAULTS.length]!;
      const from = Date.now();
      await this.#sandbox('PUT', fault);
      await this.#sleepUnlessStopped(this.#s.faultSeconds * 1000);
      await this.#sandbox('DELETE');
      this.faults.push({ fault, from, to: Date.now() });
    }
  }

  async #sleepUnlessStopped(ms: number): Promise<void> {
    for (const end = Date.now() + ms; !this.#stopped && Date.now() < end; ) await sleep(Math.min(250, end - Date.now()));
  }

  async #sandbox(method: 'PUT' | 'DELETE', body?: FaultRequest): Promise<void> {
    const res = await fetch(`${this.#s.sandboxBase}/_sandbox/faults`, { method, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`soak: the sandbox refused ${method} /_sandbox/faults: ${res.status} ${await res.text()}`);
  }

  #one(): Promise<unknown> {
    const r = this.#random;
    const f = this.#f;
    const kind = r.weighted(MIX);
    switch (kind) {
      case 'capa':
        return this.#call(kind, 'GET', `/v1/processos/cnj/${r.pick(f.hot)}`);
      case 'capa_nova':
        return this.#call(kind, 'GET', `/v1/processos/cnj/${f.cold[this.#nextCold++ % f.cold.length]}`);
      case 'movimentacoes':
        return this.#call(kind, 'GET', `/v1/processos/cnj/${r.pick(f.hot)}/movimentacoes`);
      case 'cpf':
        return this.#call(kind, 'GET', `/v1/processos?cpf_cnpj=${r.pick(f.documents)}`);
      case 'termo':
        return this.#call(kind, 'GET', `/v1/busca/termo?q=${encodeURIComponent(r.pick(f.names))}`);
      case 'oab':
        return this.#call(kind, 'GET', `/v1/advogados/processos?oab=${r.pick(f.oabs)}`);
      case 'atualizacao':
        return this.#call(kind, 'POST', `/v1/processos/cnj/${r.pick(f.hot)}/solicitar-atualizacao`);
      case 'extrato':
        return this.#call(kind, 'GET', '/v1/conta/extrato');
      case 'saldo':
        return this.#call(kind, 'GET', '/v1/conta/saldo');
      case 'monitor_criar':
        return this.#createMonitor();
      case 'monitor_remover':
        return this.#removeMonitor();
    }
  }

  async #createMonitor(): Promise<void> {
    const taken = new Set(this.#monitors.map((m) => m.numero));
    const numero = this.#f.hot.find((n) => !taken.has(n) && this.#random.chance(0.2)) ?? this.#f.hot.find((n) => !taken.has(n));
    if (!numero) return this.#removeMonitor();
    taken.add(numero);
    this.#monitors.push({ id: '', numero });
    const body = await this.#call('monitor_criar', 'POST', '/v1/monitoramentos/processos', { numero_cnj: numero });
    const entry = this.#monitors.find((m) => m.numero === numero)!;
    if (body?.data?.id) entry.id = body.data.id;
    else this.#monitors.splice(this.#monitors.indexOf(entry), 1);
  }

  async #removeMonitor(): Promise<void> {
    const ready = this.#monitors.filter((m) => m.id);
    if (ready.length === 0) return this.#createMonitor();
    const m = this.#random.pick(ready);
    this.#monitors.splice(this.#monitors.indexOf(m), 1);
    await this.#call('monitor_remover', 'DELETE', `/v1/monitoramentos/processos/${m.id}`);
  }

  /** One request; its answer counted under `kind` as "200" or "503 SOURCE_UNAVAILABLE". */
  async #call(kind: Kind, method: string, path: string, json?: unknown): Promise<Answer | undefined> {
    const startedAt = Date.now();
    let answer: string;
    let body: Answer | undefined;
    try {
      const res = await fetch(`${this.#s.base}${path}`, {
        method,
        signal: AbortSignal.timeout(60_000),
        headers: { 'x-api-key': this.#s.key, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      answer = res.status >= 400 ? `${res.status} ${body?.error?.code ?? '(no code)'}` : String(res.status);
      if (res.status >= 500) this.serverErrors.push({ kind, answer, startedAt, endedAt: Date.now() });
    } catch (e) {
      answer = `network ${(e as Error).name}`;
      this.serverErrors.push({ kind, answer, startedAt, endedAt: Date.now() });
    }
    this.answered++;
    this.counts[kind] ??= {};
    const byKind = this.counts[kind];
    byKind[answer] = (byKind[answer] ?? 0) + 1;
    return body;
  }

  /** 5xx that are not an injected fault's documented answer to a request in flight while it was on. */
  unexplained(): ServerError[] {
    return this.serverErrors.filter((e) => !(UPSTREAM_FAILURES.has(e.answer) && this.faults.some((w) => e.startedAt <= w.to && e.endedAt >= w.from)));
  }
}
