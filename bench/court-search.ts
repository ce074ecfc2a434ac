/**
 * The fan-out of a CPF search across every enabled court that searches by document (issue 32): the
 * sandbox's e-SAJ and PJe simulators behind the real consultations connector, each court with its own
 * per-host pool and budget (in production every court is its own host; in the sandbox they share one
 * loopback origin, so the bench gives each court its own ConsultaHttp to keep the budgets per court),
 * at the default budget (TRAMITA_CONSULTA_REQUESTS_PER_MINUTE) and with the simulator's latency knob
 * (faults `consultas` and `pje` `latencyMs`) at 0, 200 and 1,000 ms per answer. Measured: the time to
 * the first and the last court's hit list, and to the last detail page of the hits looked up (at most
 * SEARCH_HITS_PER_COURT per court, each a court page read through the same budget), and the requests
 * each court received for the search (issue 43 item 7: its search pages plus one per hit, the page the
 * hit's row links, read on the search's session).
 * The CPF is the data set's party with the most cases in those courts.
 * Standalone: node bench/court-search.ts
 */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { ConsultaHttp } from '../src/sources/consultas/http.ts';
import { ConsultasConnector, enabledCourts, SEARCH_HITS_PER_COURT } from '../src/sources/consultas/connector.ts';
import { CONSULTA_SEARCHES } from '../src/sources/consultas/systems.ts';

export interface FanOutRow {
  latencyMs: number;
  courts: number;
  answered: number;
  hits: number;
  firstMs: number;
  lastMs: number;
  detailsMs: number;
  /** Per court: the hits it listed and the requests it received (search pages and hit pages). */
  perCourt: { tribunal: string; hits: number; requests: number }[];
}

const LATENCIES = [0, 200, 1_000];

export async function courtSearchFanOut(cases = 20_000): Promise<{ perMinute: number; rows: FanOutRow[] }> {
  const config = loadConfig({});
  const sandbox = await startSandbox({ cases, seed: 1, datajudApiKey: config.datajudApiKey });
  const courts = enabledCourts('all', {})
    .filter(({ court }) => CONSULTA_SEARCHES[court.sistema].includes('documento'))
    .map(({ court }) => ({
      court,
      urls: { 1: court.sistema === 'pje' ? `${sandbox.pjeUrl}/${court.sigla}` : `${sandbox.consultasUrl}/${court.sigla.toLowerCase()}`, 2: null },
    }));
  const siglas = new Set(courts.map(({ court }) => court.sigla));
  const now = Date.now();
  const byDoc = new Map<string, number>();
  for (const c of sandbox.dataset.cases) {
    if (c.filedAt > now || !siglas.has(c.court.sigla)) continue;
    for (const p of c.partes) if (p.person.documento?.length === 11) byDoc.set(p.person.documento, (byDoc.get(p.person.documento) ?? 0) + 1);
  }
  const documento = [...byDoc].sort((a, b) => b[1] - a[1])[0]![0];
  const rows: FanOutRow[] = [];
  try {
    for (const latencyMs of LATENCIES) {
      sandbox.faults.set({ upstream: 'consultas', latencyMs });
      sandbox.faults.set({ upstream: 'pje', latencyMs });
      // One connector (one pool, one budget) per court: a fresh budget per run, as a court's host has.
      const perCourt = courts.map(
        (c) =>
          new ConsultasConnector({
            courts: [c],
            sandbox: true,
            http: new ConsultaHttp({
              userAgent: 'Tramita-bench',
              perMinute: config.consultaRequestsPerMinute,
              timeoutMs: config.consultaTimeoutMs,
              retryDelaysMs: [],
            }),
          }),
      );
      sandbox.resetStats();
      const started = performance.now();
      const answers = await Promise.all(
        perCourt.map(async (connector) => {
          const report = await connector.searchCourts({ kind: 'documento', documento });
          const listedAt = performance.now() - started;
          const numeros = report.responderam.flatMap((r) => r.numeros);
          await Promise.all(numeros.map((n) => connector.fetchDetails(n).catch(() => null)));
          return {
            tribunal: report.consultadas[0]!,
            answered: report.responderam.length,
            hits: numeros.length,
            listedAt,
            detailedAt: performance.now() - started,
          };
        }),
      );
      await Promise.all(perCourt.map((c) => c.close()));
      const { consultas, pje } = sandbox.stats();
      const received = (sigla: string) => (consultas.bySegment[sigla.toLowerCase()] ?? 0) + (pje.bySegment[sigla] ?? 0);
      rows.push({
        latencyMs,
        courts: courts.length,
        answered: answers.reduce((n, a) => n + a.answered, 0),
        hits: answers.reduce((n, a) => n + a.hits, 0),
        firstMs: Math.min(...answers.map((a) => a.listedAt)),
        lastMs: Math.max(...answers.map((a) => a.listedAt)),
        detailsMs: Math.max(...answers.map((a) => a.detailedAt)),
        perCourt: answers.map((a) => ({ tribunal: a.tribunal, hits: a.hits, requests: received(a.tribunal) })),
      });
    }
  } finally {
    await sandbox.close();
  }
  return { perMinute: config.consultaRequestsPerMinute, rows };
}

export async function describeCourtSearchFanOut(): Promise<string> {
  const { perMinute, rows } = await courtSearchFanOut();
  return rows
    .map(
      (r) =>
        `Court search fan-out (CPF, ${r.courts} courts, ${perMinute} req/min per host, ≤${SEARCH_HITS_PER_COURT} hits per court looked up; simulator ` +
        `latency ${r.latencyMs} ms): ` +
        `${r.answered} answered, ${r.hits} hits; first hit list ${r.firstMs.toFixed(0)} ms, last ${r.lastMs.toFixed(0)} ms; last detail ` +
        `page ${r.detailsMs.toFixed(0)} ms; requests per court (hits): ` +
        `${r.perCourt.map((c) => `${c.tribunal} ${c.requests} (${c.hits})`).join(', ')}; ` +
        `${r.perCourt.reduce((n, c) => n + c.requests, 0)} in all.`,
    )
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await describeCourtSearchFanOut());
