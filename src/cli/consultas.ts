/**
 * `tramita consultas verificar [SIGLA…] [--processo SIGLA=CNJ…] [--json]` (issue 44 item 5): after an
 * upgrade, or when a court changes its pages, ask each enabled court's consultation (or those named)
 * for one public case, through the same connector the API uses: the number the operator gives, else the
 * case of that court Tramita consulted last. One row per court: whether the court answered at all,
 * whether it answered a challenge, whether the page was read (a case, or its own not-found), and how
 * many of its lines were read only in part. Exit 1 when a court's page could not be read, or a section
 * of it read as nothing (`partes.secao`: a parties section with no party; `mensagem.desconhecida`).
 *
 * `tramita consultas esqueleto CNJ DIR` (item 6): the court's pages for that case, asked as the API asks
 * them, saved into DIR (new or empty) reduced to their structure (sources/consultas/skeleton.ts: text,
 * attribute values and scripts shaped, tags, ids and classes kept), so a page that fails can be handed to
 * a maintainer without the people in it. A page that cannot be reduced is refused and not saved (exit 1).
 */
import { parseArgs } from 'node:util';
import type { Services } from '../platform/services.ts';
import { consultaState } from '../platform/observability/consultas.ts';
import { SourceError } from '../platform/ports/source-error.ts';
import { UsageError, type Print } from './admin.ts';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromPage } from '../platform/identifiers/on-page.ts';
import { recordConsultaPages, type RecordedConsultaPage } from '../sources/consultas/http.ts';
import { SkeletonError, skeletonOf } from '../sources/consultas/skeleton.ts';

export interface VerificationRow {
  tribunal: string;
  sistema: string;
  processo: string | null;
  /** The court answered (a page, a challenge, a refusal); false on a timeout or an outage. */
  alcancavel: boolean;
  /** `captcha`, `anti_bot` or `login` when the court answered one; else null. */
  desafio: string | null;
  /** `caso`, `nao_encontrado`, or the failure (`malformed`…); `sem_processo` when no number was given or stored. */
  pagina: string;
  /** Lines of the page read only in part, per field. */
  anomalias: Record<string, number>;
}

const CHALLENGES = new Set(['captcha', 'anti_bot', 'login']);
/** Anomalies that say a section of the page was not read at all (issue 52): the layout changed, as a failure does. */
const LAYOUT = new Set(['partes.secao', 'mensagem.desconhecida']);
const OUTAGES = new Set(['timeout', 'unavailable']);

export async function consultasCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  if (sub === 'esqueleto') return skeletonCommand(s, args, print);
  if (sub !== 'verificar') throw new UsageError(`unknown consultas command "${sub ?? ''}"`);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { processo: { type: 'string', multiple: true, default: [] }, json: { type: 'boolean', default: false } },
  });
  const enabled = s.sources.consultas?.courts ?? [];
  const asked = positionals.map((p) => p.trim().toUpperCase());
  const unknown = asked.filter((sigla) => !enabled.some((c) => c.sigla === sigla));
  if (unknown.length > 0) throw new UsageError(`not an enabled consultation (TRAMITA_CONSULTAS): ${unknown.join(', ')}`);
  const given = new Map<string, string>();
  for (const p of values.processo as string[]) {
    const m = /^([A-Za-z0-9]+)=([\d.-]+)$/.exec(p.trim());
    if (!m) throw new UsageError(`--processo takes SIGLA=CNJ, got ${JSON.stringify(p)}`);
    given.set(m[1]!.toUpperCase(), m[2]!.replace(/\D/g, ''));
  }
  const rows: VerificationRow[] = [];
  for (const court of enabled.filter((c) => asked.length === 0 || asked.includes(c.sigla))) {
    rows.push(await verify(s, court, given.get(court.sigla) ?? (await lastConsulted(s, court.sigla))));
  }
  if (values.json) print(JSON.stringify(rows, null, 2));
  else {
    print('tribunal  sistema  processo              alcançável  desafio   página          linhas lidas em parte');
    for (const r of rows) {
      const parts = Object.entries(r.anomalias).map(([campo, n]) => `${campo}: ${n}`);
      print(
        `${r.tribunal.padEnd(9)} ${r.sistema.padEnd(8)} ${(r.processo ?? '—').padEnd(21)} ${(r.alcancavel ? 'sim' : 'não').padEnd(11)} ` +
          `${(r.desafio ?? '—').padEnd(9)} ${r.pagina.padEnd(15)} ${parts.length === 0 ? '—' : parts.join(', ')}`,
      );
    }
  }
  return rows.some((r) => (r.pagina !== 'caso' && r.pagina !== 'nao_encontrado') || Object.keys(r.anomalias).some((c) => LAYOUT.has(c))) ? 1 : 0;
}

/** The case of that court whose consultation Tramita read last, when any. */
async function lastConsulted(s: Services, sigla: string): Promise<string | null> {
  const row = await s.db
    .selectFrom('cases')
    .select('numero_cnj')
    .where('tribunal', '=', sigla)
    .where('consulta', 'is not', null)
    .orderBy('consultado_em', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.numero_cnj ?? null;
}

async function verify(s: Services, court: { sigla: string; sistema: string; source: string }, numero: string | null): Promise<VerificationRow> {
  const row: VerificationRow = {
    tribunal: court.sigla,
    sistema: court.sistema,
    processo: numero,
    alcancavel: false,
    desafio: null,
    pagina: 'sem_processo',
    anomalias: {},
  };
  if (!numero || !s.sources.details) return row;
  const before = consultaState(court.sigla)?.anomalias ?? {};
  try {
    const found = await s.sources.details.fetchDetails(numero);
    row.alcancavel = true;
    row.pagina = found?.consulta?.fonte === court.source ? 'caso' : found ? 'outra_fonte' : 'nao_encontrado';
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    row.alcancavel = !OUTAGES.has(err.failure);
    row.desafio = CHALLENGES.has(err.failure) ? err.failure : null;
    row.pagina = err.failure;
  }
  const after = consultaState(court.sigla)?.anomalias ?? {};
  for (const [campo, n] of Object.entries(after)) if (n > (before[campo] ?? 0)) row.anomalias[campo] = n - (before[campo] ?? 0);
  return row;
}

async function skeletonCommand(s: Services, args: string[], print: Print): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: {} });
  if (positionals.length !== 2) throw new UsageError('expected CNJ DIR');
  const cnj = fromPage('cnj', positionals[0]!);
  if (!cnj) throw new UsageError(`not a CNJ number: ${JSON.stringify(positionals[0])}`);
  const dir = positionals[1]!;
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`${dir} is not empty`);
  if (!s.sources.details || !s.sources.consultas?.courts.length) throw new UsageError('no court consultation is enabled (TRAMITA_CONSULTAS)');
  const pages: RecordedConsultaPage[] = [];
  const stop = recordConsultaPages((p) => pages.push(p));
  let outcome = 'caso';
  try {
    const found = await s.sources.details.fetchDetails(cnj.digits);
    if (!found) outcome = 'nao_encontrado';
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    outcome = err.failure;
  } finally {
    stop();
  }
  mkdirSync(dir, { recursive: true });
  let refused = 0;
  pages.forEach((p, i) => {
    const name = `${String(i + 1).padStart(2, '0')}-${p.method}-${path.basename(p.path).replace(/[^\w.-]/g, '_') || 'index'}-${p.status}.html`;
    try {
      writeFileSync(path.join(dir, name), skeletonOf(p.text));
      print(`${name}  ${p.source} ${p.method} ${p.path} ${p.status}`);
    } catch (err) {
      if (!(err instanceof SkeletonError)) throw err;
      refused++;
      print(`${name}  refused, not saved: ${err.message}`);
    }
  });
  print(`${pages.length - refused} of ${pages.length} pages saved to ${dir}; the consultation answered: ${outcome}`);
  return refused > 0 ? 1 : 0;
}
