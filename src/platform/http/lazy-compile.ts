/**
 * Route schemas compiled on a route's first use instead of at start-up. Fastify compiles every
 * route's validators (Ajv) and response serializers (fast-json-stringify) when the app becomes ready:
 * about half a second for Tramita's ~150 routes, most of which a given deployment rarely calls
 * (issue 19's start-up target, docs/benchmarks.md). The first request of each route pays its own
 * compilation once (milliseconds); the function compiled is exactly the one Fastify would have made.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Compiled = ((data: unknown) => unknown) & { errors?: unknown };

/** A function that compiles on its first call and then behaves as the compiled one (including Ajv's `.errors`). */
export function compiledOnFirstUse(compile: () => Compiled): Compiled {
  let real: Compiled | undefined;
  const lazy: Compiled = (data) => {
    real ??= compile();
    const result = real(data);
    lazy.errors = real.errors;
    return result;
  };
  return lazy;
}

type SerializerCompile = (route: unknown) => Compiled;

/** `schemaController.compilersFactory.buildSerializer`: Fastify's own serializer, compiled on first use. */
export const buildSerializer = ((externalSchemas: unknown, options: unknown) => {
  const compile = (SerializerSelector as unknown as () => (s: unknown, o: unknown) => SerializerCompile)()(externalSchemas, options);
  return (route: unknown) => compiledOnFirstUse(() => compile(route));
}) as never;
