/**
 * `tramita sandbox [--cases N] [--seed N] [--port N] [--latency MS]`: runs the upstream simulator on
 * its own (DataJud + case-details portal + DJEN on 127.0.0.1) until SIGINT/SIGTERM, and prints where it
 * listens, sample case numbers per justice segment, a party document and a DJEN OAB query to try.
 * Defaults come from the TRAMITA_SANDBOX_* settings.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { formatCnj } from '../platform/identifiers/cnj.ts';
import { startSandbox, type Sandbox } from './server.ts';

function intOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new RangeError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function banner(sandbox: Sandbox, seconds: string): string {
  const ex = sandbox.dataset.examples();
  const lines = [
    '',
    `  Tramita sandbox: ${sandbox.dataset.size} fictitious cases (seed ${sandbox.dataset.seed}) generated in ${seconds} s.`,
    `  DataJud simulator  ${sandbox.datajudUrl}      (POST /<alias>/_search, Authorization: APIKey <DATAJUD_API_KEY>)`,
    `  Portal simulator   ${sandbox.portalUrl}       (GET /api/v1/processos/{cnj}, /api/v1/partes/processos?documento=…)`,
    `  DJEN simulator     ${sandbox.djenUrl}         (GET /api/v1/comunicacao?numeroOab=…, /api/v1/caderno/{sigla}/{data}/D; ${sandbox.djen.size()} ` +
      `communications)`,
    `  Model simulator    ${sandbox.llmUrl}        (OpenAI-compatible: POST /chat/completions, model sandbox-resumo-1)`,
    `  Faults and stats   ${sandbox.url}/_sandbox/faults   ${sandbox.url}/_sandbox/llm   ${sandbox.url}/_sandbox/stats`,
    '',
    '  Point a Tramita server at it:',
    `    DATAJUD_URL=${sandbox.datajudUrl} TRAMITA_PORTAL_URL=${sandbox.portalUrl} DJEN_URL=${sandbox.djenUrl} TRAMITA_SUMMARY_URL=${sandbox.llmUrl} ` +
      `TRAMITA_SANDBOX=off npm start`,
    '',
    '  Sample case numbers:',
    ...Object.entries(ex.numbers).map(([segmento, numero]) => `    ${segmento.padEnd(17)} ${formatCnj(numero)}  (${numero})`),
  ];
  if (ex.document)
    lines.push(
      '',
      `  A party in several cases: ${ex.name} (documento ${ex.document})`,
      `    curl -s '${sandbox.portalUrl}/api/v1/partes/processos?documento=${ex.document}'`,
    );
  lines.push(...djenLines(sandbox));
  lines.push('', '  Every name is fictitious ("… de Teste …", "… Fictício/Fictícia …"). Ctrl-C stops.', '');
  return lines.join('\n');
}

/** A DJEN OAB to query in both spellings (the simulator hides dotted `numero_oab` from a plain query). */
function djenLines(sandbox: Sandbox): string[] {
  const { oab } = sandbox.djen.examples();
  if (!oab) return [];
  const dotted = oab.numero.replace(/\B(?=(\d{3})+$)/g, '.');
  const query = (numero: string) => `    curl -s '${sandbox.djenUrl}/api/v1/comunicacao?numeroOab=${numero}&ufOab=${oab.uf}&itensPorPagina=100'`;
  return [
    '',
    `  DJEN communications of ${oab.nome} (OAB ${oab.uf} ${oab.numero}; ${oab.comunicacoes} so far, ${oab.spellings.dotted} printed "${dotted}"):`,
    query(oab.numero),
    query(dotted),
  ];
}

/** Where the command writes (the CLI's streams). */
export interface SandboxCommandIo {
  out(text: string): void;
  err(text: string): void;
}

export async function runSandboxCommand(config: Config, argv: string[], io: SandboxCommandIo): Promise<number> {
  let values: { cases?: string; seed?: string; port?: string; latency?: string };
  let cases: number;
  let seed: number;
  let port: number;
  let latencyMs: number;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { cases: { type: 'string' }, seed: { type: 'string' }, port: { type: 'string' }, latency: { type: 'string' } },
    }));
    cases = intOption('cases', values.cases, config.sandboxCases, 1, 2_000_000);
    seed = intOption('seed', values.seed, config.sandboxSeed, 0, 2 ** 31 - 1);
    port = intOption('port', values.port, config.sandboxPort, 0, 65535);
    latencyMs = intOption('latency', values.latency, config.sandboxLatencyMs, 0, 600_000);
  } catch (e) {
    io.err(`tramita sandbox: ${(e as Error).message}\nUsage: tramita sandbox [--cases N] [--seed N] [--port N] [--latency MS]`);
    return 2;
  }
  const started = performance.now();
  io.err(`Generating ${cases} fictitious cases…`);
  const sandbox = await startSandbox({ cases, seed, port, latencyMs, datajudApiKey: config.datajudApiKey });
  io.out(banner(sandbox, ((performance.now() - started) / 1000).toFixed(1)));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
  return 0;
}
