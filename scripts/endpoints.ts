/**
 * docs/endpoints.md: every operation of spec §4 with the file that serves it, its price key and
 * whether it may answer 202 — or "not built" — and the routes beyond §4. Generated from the routes
 * the app registers (each records the file that declared it, platform/http/route.ts), so it cannot
 * drift: test/endpoints.test.ts fails when the committed file differs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { buildCapabilities } from '../src/capabilities/index.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/platform/db/database.ts';
import type { ChargeWay, RegisteredRoute } from '../src/platform/http/route.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices } from '../src/platform/services.ts';
import { SPEC_OPERATIONS, SPEC_SECTIONS, type SpecOperation } from './spec-operations.ts';

/** The method and path with parameter names erased: `{cnj}` and `:numero` are both "a parameter". */
export function routeKey(method: string, url: string): string {
  return `${method} ${url.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}')}`;
}

/** Every route the app registers, on a throwaway SQLite database, with no upstream connected. */
export async function registeredRoutes(): Promise<RegisteredRoute[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-routes-'));
  const config = loadConfig({ TRAMITA_SANDBOX: 'off', TRAMITA_LOG_LEVEL: 'silent' }, { dataDir, databaseUrl: undefined });
  const database = await openDatabase(config);
  try {
    await migrate(database);
    const services = createServices(config, database, createLogger('silent'));
    const app = await buildApp(services, buildCapabilities(services));
    const routes = [...app.tramita.routes];
    await app.close();
    services.webhooks.sender.close();
    return routes;
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** When a charged route is charged (route.ts ChargeWay). */
const CHARGED: Record<ChargeWay, string> = { 'on-success': 'on success', 'in-handler': 'with what it creates', deferred: 'when its work completes' };

const row = (method: string, specPath: string, route: RegisteredRoute | undefined) =>
  route
    ? `| ${method} | \`${specPath}\` | [${route.file}](../${route.file}) | ${route.meta.charge ? `\`${route.meta.charge}\`` : 'free'} ` +
      `| ${route.meta.charge ? CHARGED[route.meta.chargeWay ?? 'on-success'] : '—'} | ${route.meta.async ? 'yes' : 'no'} | built |`
    : `| ${method} | \`${specPath}\` | — | — | — | — | **not built** |`;

const HEADER = '| method | path | served by | price key | charged | may answer 202 | status |\n|---|---|---|---|---|---|---|';

export function endpointsMarkdownFrom(routes: readonly RegisteredRoute[], spec: readonly SpecOperation[] = SPEC_OPERATIONS): string {
  const byKey = new Map(routes.map((r) => [routeKey(r.method, r.url), r]));
  const built = spec.filter((o) => byKey.has(routeKey(o.method, o.path)));
  const specKeys = new Set(spec.map((o) => routeKey(o.method, o.path)));
  const beyond = routes
    .filter((r) => r.url.startsWith('/v1') && !specKeys.has(routeKey(r.method, r.url)))
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  const lines = [
    '# Endpoints: spec §4 and the files that serve them',
    '',
    'This file is generated from the registered routes by `npm run docs`; a test fails when it is stale.',
    'Each route records the file that declared it; "price key" is its query type in the price table',
    '(`GET /v1/conta/precos`, docs/credits.md), "charged" when it is charged (its `chargeWay`: once on success, in the',
    'transaction of what it creates, or when the work it starts completes), "may answer 202" its async eligibility (spec §3.2).',
    '',
    `**${built.length} of ${spec.length}** operations of spec §4 are built; the other ${spec.length - built.length} answer 404 \`ROUTE_NOT_FOUND\`.`,
  ];
  for (const [section, title] of Object.entries(SPEC_SECTIONS)) {
    lines.push('', `## §${section} ${title}`, '', HEADER);
    for (const o of spec.filter((x) => x.section === section)) lines.push(row(o.method, o.path, byKey.get(routeKey(o.method, o.path))));
  }
  lines.push(
    '',
    '## Routes beyond spec §4',
    '',
    'Operations the spec implies elsewhere (the webhook of §2.4 and §6, the event feed, the statement and prices of §8) or that Tramita adds.',
    '',
    HEADER,
  );
  for (const r of beyond) lines.push(row(r.method, r.url.replace(/:([A-Za-z_]+)/g, '{$1}'), r));
  return `${lines.join('\n')}\n`;
}

export async function endpointsMarkdown(): Promise<string> {
  return endpointsMarkdownFrom(await registeredRoutes());
}
