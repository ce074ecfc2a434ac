/**
 * Request validation: Fastify's own Ajv compiler, with one set of options per part of the request.
 * - Query strings, path parameters and headers are text: values are coerced to the schema's types,
 *   and a single `?tribunal=TJSP` becomes the array a repeated parameter would give ('array').
 * - JSON bodies already carry types: scalars may still be coerced ("2" → 2), but never wrapped into or
 *   unwrapped from arrays. With 'array', Ajv lets `["x"]` through a `null | string` union unchanged
 *   (the null branch swallows the unwrap), so a handler would receive an array where its schema
 *   promises a string (a 500 found by the fuzz drill, issue 14).
 */
import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { compiledOnFirstUse } from './lazy-compile.ts';

const SHARED = { removeAdditional: false, useDefaults: true, allErrors: false } as const;

/** What Fastify hands a validator compiler for one part of one route. */
type Compile = (route: { schema: unknown; httpPart?: string }) => unknown;
type Build = (externalSchemas: unknown, options: { customOptions: Record<string, unknown> }) => Compile;

/** `schemaController.compilersFactory.buildValidator` for Fastify's options. */
export const buildValidator = ((externalSchemas: unknown, options: Record<string, unknown> = {}) => {
  const build = AjvCompiler() as unknown as Build;
  const text = build(externalSchemas, { ...options, customOptions: { ...SHARED, coerceTypes: 'array' } });
  const json = build(externalSchemas, { ...options, customOptions: { ...SHARED, coerceTypes: true } });
  // Compiled at the route's first request, not at start-up (lazy-compile.ts).
  return ((route) => compiledOnFirstUse(() => (route.httpPart === 'body' ? json : text)(route) as never)) satisfies Compile;
}) as unknown as BuildCompilerFromPool;
