/**
 * Connects the upstreams this process talks to, from the configuration: the real DataJud (and a
 * case-details provider when TRAMITA_PORTAL_URL is set, and DJEN), or, when the entry point runs the
 * sandbox simulator (cli/upstreams.ts), its loopback URLs, which the same connectors talk to
 * (DESIGN.md §5). One DataJud budget per process, shared by every caller.
 */
import { ConfigError, type Config } from '../config.ts';
import type { Sources } from '../platform/ports/sources.ts';
import { DataJudConnector, dataJudOptionsFromConfig } from './datajud/index.ts';
import { DjenConnector, djenOptionsFromConfig, PUBLIC_DJEN_URL } from './djen/index.ts';
import { djenAddressees } from './djen/addressees.ts';
import { coverageOf } from './coverage.ts';
import { ChatCompletionsConnector } from './chat/connector.ts';
import { PortalConnector } from './portal/connector.ts';
import { DjeConnector, PUBLIC_DJE_URL } from './dje/connector.ts';
import { MuralConnector } from './mural/connector.ts';
import { WarrantsConnector } from './warrants/connector.ts';
import { PUBLIC_STF_URL, StfConnector } from './stf/connector.ts';
import { ProtocoloConnector, PUBLIC_PROTOCOLO_URL } from './protocolo/connector.ts';
import { PUBLIC_TJRJ_PRECATORIOS_URL, TjrjConnector } from './tjrj/connector.ts';
import { registerUpstreams } from '../platform/observability/upstreams.ts';
import { bodyLimits } from './http/body.ts';
import { ConsultasConnector, consultaSource, enabledCourts } from './consultas/connector.ts';
import type { ConsultaCourt } from './consultas/courts.ts';
import { ConsultaHttp } from './consultas/http.ts';
import { DetailsChain } from './details-chain.ts';
import { checkCourtSettings } from './court-settings.ts';
import type { CaseDetailsSource } from '../platform/ports/case-details.ts';

export const PUBLIC_DATAJUD_URL = 'https://api-publica.datajud.cnj.jus.br';

/** Where the sandbox simulator listens, when this process runs it (the sandbox's own handle extends this). */
export interface SimulatedUpstreams {
  /** `url + '/datajud'`: use as DATAJUD_URL. */
  datajudUrl: string;
  /** `url + '/portal'`: use as TRAMITA_PORTAL_URL. */
  portalUrl: string;
  /** `url + '/djen'`: use as DJEN_URL (the API lives at `/api/v1/…` below it). */
  djenUrl: string;
  /** `url + '/llm/v1'`: the simulated chat-completions model, up to `/v1` (TRAMITA_SUMMARY_URL; model `sandbox-resumo-1`). */
  llmUrl: string;
  /** `url + '/stf'`: the STF gazette's host (its API lives at `/decisoes-publicacoes/api/public`). */
  stfUrl: string;
  /** `url + '/dje'`: the electoral gazettes' host (`/dje-consulta/rest/…` below it). */
  djeUrl: string;
  /** `url + '/provedor/mural'`: a provider speaking docs/providers.md for the mural (TRAMITA_MURAL_PROVIDER_URL). */
  muralProviderUrl: string;
  /** `url + '/mandados/tramita'`: a warrants provider speaking docs/providers.md (TRAMITA_WARRANTS_PROVIDER_URL). */
  warrantsProviderUrl: string;
  /** `url + '/protocolo'`: Protocolo Integrado's imitation (TRAMITA_PROTOCOLO_URL). */
  protocoloUrl: string;
  /** `url + '/tjrj'`: TJRJ's precatório API (TRAMITA_TJRJ_PRECATORIOS_URL). */
  tjrjPrecatoriosUrl: string;
  /** `url + '/consultas'`: the courts' consultation pages (e-SAJ, TJDFT REST), one context per court: `<url>/<sigla>` (lower case). */
  consultasUrl: string;
  /** `url + '/pje'`: PJe's classic consulta pública, one context per court: `<url>/<SIGLA>`. */
  pjeUrl: string;
  /** The consultation systems the simulator speaks: courts of the others stay off beside it (unless their URL is set). */
  consultaSystems: readonly string[];
}

/** Waits between a gazette request's attempts; TRAMITA_DEV_TIME_SCALE shortens them in tests. */
const GAZETTE_RETRY_DELAYS_MS = [2_000, 8_000];

/**
 * The gazettes (STF, DJE eleitoral) and the providers (mural, warrants): a configured URL wins, else
 * the simulator's when it runs, else the public host (a provider has none: no provider, no source).
 */
function connectGazettes(config: Config, simulated: SimulatedUpstreams | null): Pick<Sources, 'stf' | 'electoral' | 'mural' | 'warrants'> {
  const common = {
    timeoutMs: config.djenTimeoutMs,
    perMinute: simulated ? 100_000 : config.gazetteRequestsPerMinute,
    retryDelaysMs: GAZETTE_RETRY_DELAYS_MS.map((ms) => ms / config.devTimeScale),
  };
  const stf = new StfConnector({
    ...common,
    body: bodyLimits('stf', config),
    baseUrl: config.stfUrl ?? simulated?.stfUrl ?? PUBLIC_STF_URL,
    sandbox: !config.stfUrl && simulated !== null,
    caFile: config.stfCaFile,
  });
  const electoral = new DjeConnector({
    ...common,
    body: bodyLimits('dje-eleitoral', config),
    baseUrl: config.djeUrl ?? simulated?.djeUrl ?? PUBLIC_DJE_URL,
    sandbox: !config.djeUrl && simulated !== null,
  });
  const muralUrl = config.muralProviderUrl ?? simulated?.muralProviderUrl;
  const mural = muralUrl
    ? new MuralConnector({
        ...common,
        body: bodyLimits('mural', config),
        baseUrl: muralUrl,
        token: config.muralProviderToken || undefined,
        sandbox: !config.muralProviderUrl,
      })
    : null;
  const warrantsUrl = config.warrantsProviderUrl ?? simulated?.warrantsProviderUrl;
  const warrants = warrantsUrl
    ? new WarrantsConnector({
        ...common,
        body: bodyLimits('mandados', config),
        baseUrl: warrantsUrl,
        protocol: config.warrantsProviderUrl ? config.warrantsProviderProtocol : 'tramita',
        token: config.warrantsProviderToken || undefined,
        sandbox: !config.warrantsProviderUrl,
      })
    : null;
  return { stf, electoral, mural, warrants };
}

/**
 * The model that writes AI summaries (TRAMITA_SUMMARY_PROVIDER): a configured URL wins; `auto` uses
 * the simulator's beside the sandbox; `extrativo`, or nothing configured, means the offline writer.
 */
const MODEL_RETRY_DELAYS_MS = [1_000, 4_000];

function connectModel(config: Config, simulated: SimulatedUpstreams | null): ChatCompletionsConnector | null {
  if (config.summaryProvider === 'extrativo') return null;
  const baseUrl = config.summaryUrl ?? simulated?.llmUrl;
  if (!baseUrl && config.summaryProvider === 'modelo') {
    throw new ConfigError(
      'TRAMITA_SUMMARY_PROVIDER=modelo needs TRAMITA_SUMMARY_URL (an OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama), or the sandbox ' +
        'running; use extrativo for the offline writer',
    );
  }
  if (!baseUrl) return null;
  return new ChatCompletionsConnector({
    baseUrl,
    apiKey: config.summaryApiKey || undefined,
    model: config.summaryModel,
    timeoutMs: config.summaryTimeoutMs,
    sandbox: !config.summaryUrl,
    body: bodyLimits('modelo', config),
    // TRAMITA_DEV_TIME_SCALE shortens the waits between attempts in development and tests.
    retryDelaysMs: MODEL_RETRY_DELAYS_MS.map((ms) => ms / config.devTimeScale),
    maxRetryAfterMs: 30_000,
  });
}

/** What the consultations' User-Agent says: who asks, and how the court reaches the operator. */
export function consultaUserAgent(contact: string): string {
  return `Tramita/0.1 (+${contact || 'operator contact not set: TRAMITA_CONSULTA_CONTACT'}; consulta processual)`;
}

/**
 * The courts' public consultations (issue 31), enabled by TRAMITA_CONSULTAS: a court's URL set by
 * TRAMITA_CONSULTA_<SIGLA>_URL wins; beside the sandbox the others point at its simulator.
 */
function connectConsultas(config: Config, simulated: SimulatedUpstreams | null): ConsultasConnector | null {
  const simulatedUrl = (court: ConsultaCourt, s: SimulatedUpstreams) =>
    court.sistema === 'pje' ? `${s.pjeUrl}/${court.sigla}` : `${s.consultasUrl}/${court.sigla.toLowerCase()}`;
  const simulatedUrls = simulated ? Object.fromEntries(enabledCourts('all', {}).map(({ court }) => [court.sigla, simulatedUrl(court, simulated)])) : {};
  const courts = enabledCourts(config.consultas, { ...simulatedUrls, ...config.consultaUrls })
    .filter(({ court }) => !simulated || config.consultaUrls[court.sigla] || simulated.consultaSystems.includes(court.sistema))
    .map((c) => ({
      ...c,
      urls: { 1: c.urls[1], 2: simulated && !config.consultaUrls[c.court.sigla] ? (c.court.urls[2] ? c.urls[1] : null) : c.urls[2] },
    }));
  if (courts.length === 0) return null;
  const http = new ConsultaHttp({
    userAgent: consultaUserAgent(config.consultaContact),
    perMinute: simulated ? 100_000 : config.consultaRequestsPerMinute,
    timeoutMs: config.consultaTimeoutMs,
    retryDelaysMs: GAZETTE_RETRY_DELAYS_MS.map((ms) => ms / config.devTimeScale),
    body: bodyLimits('consultas', config),
  });
  return new ConsultasConnector({ courts, http, sandbox: simulated !== null });
}

export function connectSources(config: Config, simulated: SimulatedUpstreams | null = null): Sources {
  checkCourtSettings(config);
  const datajudUrl = simulated?.datajudUrl ?? config.datajudUrl ?? PUBLIC_DATAJUD_URL;
  const portalUrl = simulated?.portalUrl ?? config.portalUrl;
  // The budget runs on real time even under a test clock: a frozen clock would never refill it.
  const datajud = new DataJudConnector(dataJudOptionsFromConfig(config, datajudUrl, simulated !== null));
  // An explicit DJEN_URL wins even beside the sandbox (e.g. a Brazilian relay while DataJud stays simulated).
  const djenUrl = config.djenUrl ?? simulated?.djenUrl ?? PUBLIC_DJEN_URL;
  const publications = new DjenConnector(djenOptionsFromConfig(config, djenUrl, !config.djenUrl && simulated !== null));
  const portal = portalUrl
    ? new PortalConnector({
        baseUrl: portalUrl,
        courts: config.portalCourts,
        name: config.portalName,
        timeoutMs: config.datajudTimeoutMs,
        sandbox: simulated !== null,
        body: bodyLimits('portal', config),
      })
    : null;
  const consultas = connectConsultas(config, simulated);
  // The operator's provider first; the sandbox's simulated portal last, for the courts no consultation reads.
  const chain: CaseDetailsSource[] = config.portalUrl
    ? [portal!, ...(consultas ? [consultas] : [])]
    : [...(consultas ? [consultas] : []), ...(portal ? [portal] : [])];
  const details = chain.length === 0 ? null : chain.length === 1 ? chain[0]! : new DetailsChain(chain);
  const model = connectModel(config, simulated);
  const gazettes = connectGazettes(config, simulated);
  const administrative = new ProtocoloConnector({
    baseUrl: config.protocoloUrl ?? simulated?.protocoloUrl ?? PUBLIC_PROTOCOLO_URL,
    sandbox: !config.protocoloUrl && simulated !== null,
    timeoutMs: config.djenTimeoutMs,
    perMinute: simulated ? 100_000 : config.protocoloRequestsPerMinute,
    body: bodyLimits('protocolo', config),
    retryDelaysMs: GAZETTE_RETRY_DELAYS_MS.map((ms) => ms / config.devTimeScale),
  });
  const tjrj = new TjrjConnector({
    baseUrl: config.tjrjPrecatoriosUrl ?? simulated?.tjrjPrecatoriosUrl ?? PUBLIC_TJRJ_PRECATORIOS_URL,
    sandbox: !config.tjrjPrecatoriosUrl && simulated !== null,
    timeoutMs: config.djenTimeoutMs,
    perMinute: simulated ? 100_000 : config.gazetteRequestsPerMinute,
    retryDelaysMs: GAZETTE_RETRY_DELAYS_MS.map((ms) => ms / config.devTimeScale),
    body: bodyLimits('tjrj', config),
  });
  // What the metrics, the logs and the sources' states call each one (platform/observability/upstreams.ts).
  const simulatedUnless = (configured: string | undefined) => simulated !== null && !configured;
  registerUpstreams([
    { name: 'datajud', baseUrl: datajudUrl, sandbox: simulated !== null },
    // Auxiliary: skipped by request paths while failing, probed in the background (issue 51).
    { name: 'djen', baseUrl: djenUrl, sandbox: simulatedUnless(config.djenUrl), auxiliary: true },
    ...(portalUrl ? [{ name: 'portal', baseUrl: portalUrl, sandbox: simulated !== null, auxiliary: true }] : []),
    ...(model ? [{ name: 'modelo', baseUrl: config.summaryUrl ?? simulated!.llmUrl, sandbox: simulatedUnless(config.summaryUrl), auxiliary: true }] : []),
    { name: 'stf', baseUrl: config.stfUrl ?? simulated?.stfUrl ?? PUBLIC_STF_URL, sandbox: simulatedUnless(config.stfUrl) },
    { name: 'dje-eleitoral', baseUrl: config.djeUrl ?? simulated?.djeUrl ?? PUBLIC_DJE_URL, sandbox: simulatedUnless(config.djeUrl) },
    ...(gazettes.mural
      ? [{ name: 'mural', baseUrl: config.muralProviderUrl ?? simulated!.muralProviderUrl, sandbox: simulatedUnless(config.muralProviderUrl) }]
      : []),
    ...(gazettes.warrants
      ? [{ name: 'mandados', baseUrl: config.warrantsProviderUrl ?? simulated!.warrantsProviderUrl, sandbox: simulatedUnless(config.warrantsProviderUrl) }]
      : []),
    { name: 'protocolo', baseUrl: config.protocoloUrl ?? simulated?.protocoloUrl ?? PUBLIC_PROTOCOLO_URL, sandbox: simulatedUnless(config.protocoloUrl) },
    ...(consultas?.courts.flatMap(({ court, urls }) => [
      { name: consultaSource(court.sigla), baseUrl: urls[1], sandbox: simulated !== null && !config.consultaUrls[court.sigla], auxiliary: true },
      ...(urls[2] && !urls[2].startsWith(urls[1])
        ? [{ name: `${consultaSource(court.sigla)}-2g`, baseUrl: urls[2], sandbox: simulated !== null && !config.consultaUrls[court.sigla], auxiliary: true }]
        : []),
    ]) ?? []),
    {
      name: 'tjrj',
      baseUrl: config.tjrjPrecatoriosUrl ?? simulated?.tjrjPrecatoriosUrl ?? PUBLIC_TJRJ_PRECATORIOS_URL,
      sandbox: simulatedUnless(config.tjrjPrecatoriosUrl),
    },
  ]);
  const sources: Sources = {
    cases: datajud,
    details,
    publications,
    // Over the DJEN source this object holds at each call: tests swap `publications` for a scripted one.
    addressees: djenAddressees(() => sources.publications),
    coverage: coverageOf(() => sources),
    model,
    ...gazettes,
    administrative,
    tjrj,
    provider: portal && { nome: config.portalName, courts: config.portalCourts },
    consultas: consultas && {
      sandbox: consultas.info.sandbox,
      courts: consultas.courts.map(({ court }) => ({ sigla: court.sigla, sistema: court.sistema, source: consultaSource(court.sigla) })),
    },
    async close() {
      await administrative.close();
      await tjrj.close();
      await gazettes.stf.close();
      await gazettes.electoral.close();
      await gazettes.mural?.close();
      await gazettes.warrants?.close();
      await datajud.close();
      await publications.close();
      await (details as { close?(): Promise<void> } | null)?.close?.();
      await model?.close();
    },
  };
  return sources;
}
