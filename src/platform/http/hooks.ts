/** Adding a hook to one route as it is registered (an `onRoute` hook), keeping the ones it declared. */
import type { RouteOptions } from 'fastify';

type RouteHookName = 'preValidation' | 'preHandler' | 'onSend';

export function appendRouteHook(route: RouteOptions, name: RouteHookName, hook: unknown): void {
  const declared = route[name] as unknown;
  const hooks = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  (route as unknown as Record<string, unknown>)[name] = [...hooks, hook];
}
