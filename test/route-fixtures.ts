/**
 * What the shared route suite (route-suite.test.ts) needs to exercise a capability's routes. Each
 * capability keeps its own beside its routes, in its `testing.ts`, as `routeFixtures`.
 */
import type { Harness, TestAccount } from './harness.ts';

/** Makes what the route needs of `owner` and returns the path parameters (or body params) to use. */
export type Fixture = (h: Harness, owner: TestAccount) => Promise<Record<string, string>>;

export interface RouteFixtures {
  /** Every route with path parameters: an object owned by `owner`, and its params (another account must get 404). */
  owned?: Record<string, Fixture>;
  /** Routes without path parameters that need some state of the owner first. */
  setups?: Record<string, Fixture>;
  /** A valid body, by url or `METHOD url`; `params` are what the route's fixture returned. */
  bodies?: Record<string, (h: Harness, params: Record<string, string>) => unknown>;
  /** A valid query string of a route with required parameters, by url or `METHOD url`. */
  queries?: Record<string, (h: Harness) => string>;
  /** Public court data: the same for every account, so a stranger gets what the owner gets. */
  publicData?: string[];
  /** Routes that answer a file instead of the JSON envelope. */
  files?: string[];
}
