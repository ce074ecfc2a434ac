/**
 * The sandbox: one node:http server on 127.0.0.1 that simulates Tramita's upstreams with a
 * deterministic, fictitious data set, so the real connectors run offline unchanged.
 *  /datajud/<alias>/_search    the DataJud public API (datajud/server.ts)
 *  /portal/api/v1/…            the case-details protocol (portal/server.ts documents it)
 *  /djen/api/v1/…              DJEN / Comunica PJe: communications, certidões, cadernos (djen/server.ts)
 *  /llm/v1/…                   an OpenAI-compatible chat-completions model (llm/server.ts)
 *  /stf/decisoes-publicacoes/… the STF gazette API, CSRF handshake included (stf/server.ts)
 *  /dje/dje-consulta/rest/…    the electoral gazettes (TSE, TREs): day index and edition PDFs (dje/server.ts)
 *  /mural/mural-consulta-back-end/… the electoral bulletin board's back end, reCAPTCHA-gated search (mural/server.ts)
 *  /provedor/mural/…           the mural provider protocol of docs/providers.md (mural/server.ts)
 *  /mandados/tramita/…, /mandados/predictus/… warrants providers: ours and Predictus's shape (warrants/server.ts)
 *  /protocolo/documento/detalhes_documento.jsf   Protocolo Integrado's detail page (protocolo/server.ts)
 *  /tjrj/entDev, /tjrj/ordemPagamento   TJRJ's precatório API (tjrj/server.ts)
 *  /pje/<SIGLA>/ConsultaPublica/…  PJe's classic consulta pública of each PJe court (pje/server.ts)
 *  /consultas/<sigla>/…        courts' public consultations: e-SAJ pages (TJSP, TJAL, TJAC), TJDFT's REST (consultas/server.ts)
 *  /_sandbox                   info (URLs, data set, example numbers)
 *  /_sandbox/faults            GET / PUT (JSON, see faults.ts) / DELETE: fault injection
 *  /_sandbox/stats             GET / DELETE: request counters per upstream
 *  /_sandbox/djen              GET: DJEN examples
 *  /_sandbox/djen/comunicacoes POST (JSON, see djen/publish.ts): publish a communication dated today
 *  /_sandbox/llm               GET / PUT (JSON, see llm/knobs.ts) / DELETE: the model's misbehaviours
 *  /_sandbox/stf               GET / PUT (JSON, see stf/server.ts) / DELETE: the STF API's misbehaviours
 *  /_sandbox/dje               GET / PUT (JSON, see dje/server.ts) / DELETE: holidays, truncated PDFs
 *  /_sandbox/dje/edicao-extra  POST {tribunal, parte?, advogado?, oab?}: an extra electoral edition today
 *  /_sandbox/mural             GET / PUT {outOfPeriod} / DELETE: the bulletin board outside an election
 *  /_sandbox/mandados          GET / PUT {empty} / DELETE: the warrants provider answering "nothing" to all
 *  /_sandbox/protocolo         GET / PUT {captcha} / DELETE: Protocolo Integrado answering a captcha page
 *  /_sandbox/pje               GET / PUT {captcha, antiBot, courts} / DELETE: PJe answering a captcha or a Cloudflare page
 *  /_sandbox/datajud           GET / PUT {lagMs} / DELETE: DataJud answering as of `lagMs` ago (it lags the courts)
 *  /_sandbox/consultas GET / PUT {challenge: captcha|anti_bot|null, courts?} / DELETE: the e-SAJ/TJDFT consultations (all, or those courts) answering a
 *  challenge page
 *  /_sandbox/protocolo/tramitacao POST {nup, operacao?}: a new tramitação of a sandbox NUP, now
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock, type Clock } from '../platform/clock.ts';
import type { SimulatedUpstreams } from '../sources/index.ts';
import { generateDataset, type SandboxDataset } from './data/dataset.ts';
import { dataJudHandler, SandboxDataJud } from './datajud/server.ts';
import { djenFailure } from './djen/failure.ts';
import { DjenPublishError } from './djen/publish.ts';
import { createDjenSimulator, type SandboxDjen } from './djen/simulator.ts';
import { FaultError, parseFaultRequest, SandboxFaults, UPSTREAMS, type AppliedFault, type Upstream } from './faults.ts';
import { jsonResponse, type SimRequest, type SimResponse, type UpstreamHandler } from './http.ts';
import { SandboxLlm } from './llm/knobs.ts';
import { llmHandler, openAiError } from './llm/server.ts';
import { portalHandler } from './portal/server.ts';
import { StfGazette } from './stf/publications.ts';
import { SandboxStf, stfHandler } from './stf/server.ts';
import { StatsCounter, type SandboxStats } from './stats.ts';
import { DjeGazette } from './dje/editions.ts';
import { djeHandler, SandboxDje } from './dje/server.ts';
import { MuralBoard } from './mural/board.ts';
import { muralBackEndHandler, muralProviderHandler } from './mural/server.ts';
import { WarrantsRegistry } from './warrants/registry.ts';
import { warrantsHandler } from './warrants/server.ts';
import { ProtocoloRegistry } from './protocolo/registry.ts';
import { protocoloHandler } from './protocolo/server.ts';
import { TjrjPrecatorios, tjrjHandler } from './tjrj/server.ts';
import { pjeHandler, SandboxPje } from './pje/server.ts';
import { CONSULTA_SYSTEMS, consultasHandler, SandboxConsultas } from './consultas/server.ts';

export interface SandboxOptions {
  cases: number;
  seed: number;
  /** 0 or omitted: a free port. */
  port?: number;
  /** Default added latency of every upstream (TRAMITA_SANDBOX_LATENCY_MS). */
  latencyMs?: number;
  /** The key the DataJud simulator accepts (`Authorization: APIKey <key>`). */
  datajudApiKey: string;
  clock?: Clock;
  onProgress?: (done: number, total: number) => void;
  /** How many days after the anchor future cases/movements reach (default 7). */
  futureDays?: number;
}

export interface Sandbox extends SimulatedUpstreams {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `url + '/mural'`: the bulletin board's back end (Tramita never searches it: reCAPTCHA). */
  muralUrl: string;
  /** The consultations' misbehaviours (a captcha or an anti-bot page). */
  consultas: SandboxConsultas;
  dataset: SandboxDataset;
  /** The DJEN simulator's communications: publish on demand, examples. */
  djen: SandboxDjen;
  faults: SandboxFaults;
  /** The simulated model's misbehaviours (llm/knobs.ts). */
  llm: SandboxLlm;
  /** The STF gazette's publications and misbehaviours (stf/). */
  stf: { gazette: StfGazette; knobs: SandboxStf };
  /** The electoral gazettes' editions and misbehaviours (dje/). */
  dje: SandboxDje;
  /** The electoral bulletin board (mural/). */
  mural: MuralBoard;
  /** The warrants providers' people and warrants (warrants/). */
  warrants: WarrantsRegistry;
  /** Protocolo Integrado's administrative processes (protocolo/). */
  protocolo: ProtocoloRegistry;
  /** TJRJ's debtor entities and their fictitious precatórios (tjrj/). */
  tjrj: TjrjPrecatorios;
  /** The PJe consultas públicas' misbehaviours (pje/server.ts). */
  pje: SandboxPje;
  /** DataJud's lag behind the courts (datajud/server.ts). */
  datajud: SandboxDataJud;
  stats(): SandboxStats;
  resetStats(): void;
  /** Stops the server, ending hung and delayed requests; resolves once it is closed. */
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

const isUpstream = (prefix: string | undefined): prefix is Upstream => (UPSTREAMS as readonly string[]).includes(prefix ?? '');

class BodyTooLarge extends Error {}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: http.ServerResponse, r: SimResponse): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
  res.end(r.body);
}

/** The answer of an injected failure, shaped like each upstream's own errors. */
function failure(upstream: Upstream, status: number, retryAfterSeconds: number): SimResponse {
  const retry: Record<string, string> = status === 429 ? { 'retry-after': String(retryAfterSeconds) } : {};
  if (upstream === 'djen') return djenFailure(status, retry);
  if (upstream === 'llm') {
    if (status === 429) return openAiError(429, 'Rate limit reached for requests (simulated failure).', 'requests', 'rate_limit_exceeded', retry);
    if (status === 403)
      return openAiError(403, 'Your API key does not have access to this model (simulated failure).', 'invalid_request_error', 'model_not_allowed');
    return openAiError(status, `The server had an error while processing your request (simulated HTTP ${status}).`, 'server_error', null);
  }
  if (upstream === 'stf') {
    // Spring's error body, as the STF API answers it.
    return jsonResponse(
      status,
      {
        timestamp: '2026-01-01T00:00:00.000+00:00',
        status,
        error: status === 429 ? 'Too Many Requests' : status === 403 ? 'Forbidden' : 'Internal Server Error',
        path: '/decisoes-publicacoes/api/public/publicacoes',
      },
      retry,
    );
  }
  if (upstream === 'dje')
    return {
      status,
      headers: { 'content-type': 'text/plain; charset=utf-8', ...retry },
      body: Buffer.from(status === 429 ? 'Too Many Requests' : `Erro interno (falha simulada, HTTP ${status})`),
    };
  if (upstream === 'mural' || upstream === 'provedor' || upstream === 'mandados')
    return jsonResponse(status, { erro: status === 429 ? 'muitas requisições' : `falha simulada (HTTP ${status})` }, retry);
  if (upstream === 'consultas') {
    // What a court's web server sends: an HTML error page.
    return {
      status,
      headers: { 'content-type': 'text/html;charset=UTF-8', ...retry },
      body: Buffer.from(`<html><head><title>${status}</title></head><body><h1>Erro ${status} (falha simulada)</h1></body></html>`),
    };
  }
  if (upstream === 'portal') {
    const message =
      status === 429 ? 'limite de requisições excedido' : status === 403 ? 'acesso negado (falha simulada)' : 'serviço indisponível (falha simulada)';
    return jsonResponse(status, { message }, retry);
  }
  if (upstream === 'pje')
    return {
      status,
      headers: { 'content-type': 'text/html;charset=UTF-8', ...retry },
      body: Buffer.from(
        `<html><head><title>Erro ${status}</title></head><body><h1>Servi&ccedil;o indispon&iacute;vel (falha simulada, HTTP ${status})</h1></body></html>`,
      ),
    };
  if (status === 502) {
    // What the gateway in front of Elasticsearch sends: HTML, not JSON.
    return {
      status,
      headers: { 'content-type': 'text/html' },
      body: Buffer.from(
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad ' +
          'Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
      ),
    };
  }
  if (status === 429) return jsonResponse(429, { error: 'Too Many Requests', status: 429 }, retry);
  const type = status === 503 ? 'cluster_block_exception' : status === 403 ? 'security_exception' : 'internal_server_error';
  const cause = { type, reason: `simulated failure (HTTP ${status})` };
  return jsonResponse(status, { error: { root_cause: [cause], ...cause }, status });
}

/** A 200 cut in half: the "malformed JSON" fault (PDFs get cut too). */
function truncate(r: SimResponse): SimResponse {
  return { ...r, body: r.body.subarray(0, Math.floor(r.body.length / 2)) };
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const dataset = generateDataset({ cases: options.cases, seed: options.seed, clock, onProgress: options.onProgress, futureDays: options.futureDays });
  const faults = new SandboxFaults(options.latencyMs ?? 0);
  const llm = new SandboxLlm();
  const stf = { gazette: new StfGazette(dataset), knobs: new SandboxStf() };
  const dje = new SandboxDje(new DjeGazette(dataset));
  const mural = new MuralBoard(dataset);
  const warrants = new WarrantsRegistry(dataset);
  const protocolo = new ProtocoloRegistry(dataset);
  const tjrj = new TjrjPrecatorios(dataset.seed);
  const pje = new SandboxPje();
  const datajud = new SandboxDataJud();
  const consultas = new SandboxConsultas();
  const counters = new StatsCounter();
  const closing = new AbortController();
  const sockets = new Set<Socket>();
  let djenUrl = '';
  const djen = createDjenSimulator(dataset, () => djenUrl);
  const handlers: Record<Upstream, UpstreamHandler> = {
    datajud: dataJudHandler({ dataset, apiKey: options.datajudApiKey, knobs: datajud }),
    portal: portalHandler({ dataset }),
    djen: djen.handler,
    llm: llmHandler({ knobs: llm }),
    stf: stfHandler(stf),
    dje: djeHandler(dje),
    mural: muralBackEndHandler(mural),
    provedor: muralProviderHandler(mural),
    mandados: warrantsHandler(warrants),
    protocolo: protocoloHandler(protocolo),
    tjrj: tjrjHandler(tjrj),
    pje: pjeHandler(dataset, pje),
    consultas: consultasHandler({ dataset, knobs: consultas }),
  };
  /** The misbehaviours each simulator takes over HTTP: PUT/POST sets (a bad setting is a 400), DELETE resets, GET reads. */
  const KNOB_PATHS: Record<string, { set(v: never): void; get(): unknown; reset(): void }> = {
    '/_sandbox/llm': llm,
    '/_sandbox/stf': stf.knobs,
    '/_sandbox/dje': dje,
    '/_sandbox/mural': mural,
    '/_sandbox/mandados': warrants,
    '/_sandbox/protocolo': protocolo,
    '/_sandbox/pje': pje,
    '/_sandbox/datajud': datajud,
    '/_sandbox/consultas': consultas,
  };
  let info: () => unknown = () => ({});

  async function answer(upstream: Upstream, fault: AppliedFault, request: SimRequest): Promise<SimResponse | null> {
    if (fault.latencyMs > 0) {
      counters.fault(upstream, 'latency');
      await delay(fault.latencyMs, undefined, { signal: closing.signal });
    }
    if (fault.hang) {
      counters.fault(upstream, 'hang');
      return null; // the socket stays open until the client aborts or close() destroys it
    }
    if (fault.status !== null) {
      counters.fault(upstream, 'status');
      return failure(upstream, fault.status, fault.retryAfterSeconds);
    }
    let response = await handlers[upstream](request, { now: dataset.now(), partialShards: fault.partialShards });
    if (fault.partialShards && upstream === 'datajud') counters.fault(upstream, 'partialShards');
    if (fault.malformed && response.status === 200) {
      counters.fault(upstream, 'malformed');
      response = truncate(response);
    }
    return response;
  }

  async function serveUpstream(upstream: Upstream, path: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    counters.request(upstream, path);
    let response: SimResponse | null;
    try {
      const body = await readBody(req);
      response = await answer(upstream, faults.take(upstream), {
        method: req.method ?? 'GET',
        path: path || '/',
        query: url.searchParams,
        headers: req.headers,
        body,
      });
    } catch (e) {
      if (closing.signal.aborted) return;
      response =
        e instanceof BodyTooLarge
          ? jsonResponse(413, { message: 'request body too large' })
          : jsonResponse(500, { message: `sandbox internal error: ${(e as Error).message}` });
    }
    if (response === null) return;
    counters.response(upstream, response.status);
    send(res, response);
  }

  async function control(path: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (path === '/_sandbox/faults') {
      if (req.method === 'PUT' || req.method === 'POST') {
        try {
          faults.set(parseFaultRequest(JSON.parse((await readBody(req)).toString('utf8') || '{}')));
        } catch (e) {
          return send(res, jsonResponse(400, { message: e instanceof FaultError || e instanceof SyntaxError ? e.message : String(e) }));
        }
      } else if (req.method === 'DELETE') faults.reset();
      return send(res, jsonResponse(200, faults.get()));
    }
    if (path === '/_sandbox/stats') {
      if (req.method === 'DELETE') counters.reset();
      return send(res, jsonResponse(200, counters.snapshot()));
    }
    if (path === '/_sandbox/djen/comunicacoes' && req.method === 'POST') {
      try {
        return send(res, jsonResponse(201, djen.control.publish(JSON.parse((await readBody(req)).toString('utf8') || '{}'))));
      } catch (e) {
        if (e instanceof DjenPublishError || e instanceof SyntaxError) return send(res, jsonResponse(400, { message: e.message }));
        throw e;
      }
    }
    const knobs = KNOB_PATHS[path];
    if (knobs) {
      if (req.method === 'PUT' || req.method === 'POST') {
        try {
          knobs.set(JSON.parse((await readBody(req)).toString('utf8') || '{}') as never);
        } catch (e) {
          return send(res, jsonResponse(400, { message: e instanceof Error ? e.message : String(e) }));
        }
      } else if (req.method === 'DELETE') knobs.reset();
      return send(res, jsonResponse(200, knobs.get()));
    }
    if (path === '/_sandbox/dje/edicao-extra' && req.method === 'POST') {
      try {
        return send(res, jsonResponse(201, dje.publish(JSON.parse((await readBody(req)).toString('utf8') || '{}'))));
      } catch (e) {
        if (e instanceof RangeError || e instanceof SyntaxError || (e as { code?: string }).code === 'INVALID_OAB')
          return send(res, jsonResponse(400, { message: (e as Error).message }));
        throw e;
      }
    }
    if (path === '/_sandbox/protocolo/tramitacao' && req.method === 'POST') {
      try {
        const { nup, operacao } = JSON.parse((await readBody(req)).toString('utf8') || '{}') as { nup?: unknown; operacao?: unknown };
        if (typeof nup !== 'string' || (operacao !== undefined && typeof operacao !== 'string'))
          throw new RangeError('send {"nup": "<17 digits>", "operacao"?: "…"}');
        return send(res, jsonResponse(201, protocolo.addMovement(nup.replace(/\D/g, ''), dataset.now(), operacao)));
      } catch (e) {
        if (e instanceof RangeError || e instanceof SyntaxError) return send(res, jsonResponse(400, { message: e.message }));
        throw e;
      }
    }
    if (path === '/_sandbox/djen') return send(res, jsonResponse(200, { comunicacoes: djen.control.size(), examples: djen.control.examples() }));
    if (path === '/_sandbox' || path === '/') return send(res, jsonResponse(200, info()));
    send(res, jsonResponse(404, { message: 'not found' }));
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const [, prefix] = /^\/([^/]*)/.exec(url.pathname) ?? [];
    const rest = url.pathname.slice(prefix.length + 1);
    const done = isUpstream(prefix) ? serveUpstream(prefix, rest, req, res, url) : control(url.pathname.replace(/\/+$/, '') || '/', req, res);
    done.catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });

  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  djenUrl = `${url}/djen`;
  const sandbox: Sandbox = {
    url,
    datajudUrl: `${url}/datajud`,
    portalUrl: `${url}/portal`,
    djenUrl,
    llmUrl: `${url}/llm/v1`,
    stfUrl: `${url}/stf`,
    djeUrl: `${url}/dje`,
    muralUrl: `${url}/mural`,
    muralProviderUrl: `${url}/provedor/mural`,
    warrantsProviderUrl: `${url}/mandados/tramita`,
    protocoloUrl: `${url}/protocolo`,
    tjrjPrecatoriosUrl: `${url}/tjrj`,
    pjeUrl: `${url}/pje`,
    consultasUrl: `${url}/consultas`,
    consultas,
    consultaSystems: CONSULTA_SYSTEMS,
    dataset,
    djen: djen.control,
    faults,
    llm,
    stf,
    dje,
    mural,
    warrants,
    protocolo,
    tjrj,
    pje,
    datajud,
    stats: () => counters.snapshot(),
    resetStats: () => counters.reset(),
    close: async () => {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  info = () => ({
    datajudUrl: sandbox.datajudUrl,
    portalUrl: sandbox.portalUrl,
    djenUrl: sandbox.djenUrl,
    llmUrl: sandbox.llmUrl,
    stfUrl: sandbox.stfUrl,
    djeUrl: sandbox.djeUrl,
    muralProviderUrl: sandbox.muralProviderUrl,
    warrantsProviderUrl: sandbox.warrantsProviderUrl,
    mandados: warrants.examples(),
    protocoloUrl: sandbox.protocoloUrl,
    pjeUrl: sandbox.pjeUrl,
    nups: protocolo.examples(),
    cases: dataset.size,
    seed: dataset.seed,
    anchor: dataset.anchor.toISOString(),
    now: new Date(dataset.now()).toISOString(),
    examples: dataset.examples(),
    djen: { comunicacoes: djen.control.size(), generationMs: Math.round(djen.generationMs), examples: djen.control.examples() },
  });
  return sandbox;
}
