/**
 * Every capability's route fixtures (each kept beside its routes, in its testing.ts), merged, and the
 * valid call they make of a route: shared by the route suite (route-suite.test.ts) and the OpenAPI
 * conformance test (openapi-conformance.test.ts), so both drive the same calls.
 */
import type { RegisteredRoute } from '../src/platform/http/route.ts';
import type { Harness } from './harness.ts';
import type { Fixture, RouteFixtures } from './route-fixtures.ts';
import { routeFixtures as pollFixtures } from '../src/platform/async/testing.ts';
import { routeFixtures as caseFixtures } from '../src/capabilities/processes/testing.ts';
import { routeFixtures as partyFixtures } from '../src/capabilities/parties/testing.ts';
import { routeFixtures as searchFixtures } from '../src/capabilities/search/testing.ts';
import { routeFixtures as webhookFixtures } from '../src/capabilities/webhooks/testing.ts';
import { routeFixtures as eventFixtures } from '../src/capabilities/events/testing.ts';
import { routeFixtures as monitorFixtures } from '../src/capabilities/monitors/testing.ts';
import { routeFixtures as radarFixtures } from '../src/capabilities/radars/testing.ts';
import { routeFixtures as intimationFixtures } from '../src/capabilities/intimations/testing.ts';
import { routeFixtures as publicationMonitorFixtures } from '../src/capabilities/publication-monitors/testing.ts';
import { routeFixtures as lawyerFixtures } from '../src/capabilities/lawyers/testing.ts';
import { routeFixtures as gazetteFixtures } from '../src/capabilities/gazettes/testing.ts';
import { routeFixtures as muralFixtures } from '../src/capabilities/mural/testing.ts';
import { routeFixtures as warrantFixtures } from '../src/capabilities/warrants/testing.ts';
import { routeFixtures as summaryFixtures } from '../src/capabilities/summaries/testing.ts';
import { routeFixtures as administrativeFixtures } from '../src/capabilities/administrative/testing.ts';

export { closeReceiver } from '../src/capabilities/webhooks/testing.ts';

/** Every capability's fixtures, kept beside its routes (its testing.ts). */
const FIXTURES: RouteFixtures[] = [
  pollFixtures,
  caseFixtures,
  summaryFixtures,
  partyFixtures,
  searchFixtures,
  webhookFixtures,
  eventFixtures,
  monitorFixtures,
  radarFixtures,
  intimationFixtures,
  publicationMonitorFixtures,
  lawyerFixtures,
  gazetteFixtures,
  muralFixtures,
  warrantFixtures,
  administrativeFixtures,
];
const merged = <K extends 'owned' | 'setups' | 'bodies' | 'queries'>(k: K) =>
  Object.assign({}, ...FIXTURES.map((f) => f[k] ?? {})) as NonNullable<RouteFixtures[K]>;

/** For each route with path parameters: creates an object owned by `owner` and returns its params. */
export const OWNED = merged('owned');
/** Routes without path parameters that need some state of the owner first; the params they return feed the body. */
const SETUP = merged('setups');
/** Bodies of the routes that need one (others get `{}`), by `METHOD url` or url. */
const BODY = merged('bodies');
/** Routes with required query parameters, and a valid query string for them (by `METHOD url` or url). */
const QUERY = merged('queries');
/** Public court data is the same for every account: these routes answer a stranger like the owner. */
export const PUBLIC_DATA = new Set(FIXTURES.flatMap((f) => f.publicData ?? []));
/** Routes that answer a file instead of the JSON envelope. */
export const FILES = new Set(FIXTURES.flatMap((f) => f.files ?? []));

/** What the route needs of `owner` first: its owned object, its setup, or nothing. */
export const samples = (route: RegisteredRoute): Fixture => (route.url.includes(':') ? OWNED[route.url] : (SETUP[route.url] ?? (async () => ({}))));

function fill(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name) => {
    if (!(name in params)) throw new Error(`no fixture value for :${name} in ${url}`);
    return params[name];
  });
}

export interface ValidCall {
  method: string;
  /** The path with its parameters filled in. */
  path: string;
  /** The query string, without `?` (empty when none). */
  query: string;
  /** The JSON body; undefined on GET and DELETE. */
  body: unknown;
}

/** The valid call of a route for the params its fixture returned, with `extraQuery` appended. */
export function validCall(h: Harness, route: RegisteredRoute, params: Record<string, string> = {}, extraQuery = ''): ValidCall {
  const query = [(QUERY[`${route.method} ${route.url}`] ?? QUERY[route.url])?.(h), extraQuery].filter(Boolean).join('&');
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : ((BODY[`${route.method} ${route.url}`] ?? BODY[route.url])?.(h, params) ?? {});
  return { method: route.method, path: fill(route.url, params), query, body };
}
