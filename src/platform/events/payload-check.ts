/**
 * Every event's `data` is checked against its kind's declared schema when it is recorded (EventLog.record):
 * the types catch a wrong field at the emitter, this catches what types cannot see (a spread, a cast,
 * a value from JSON). Under the test runner a mismatch throws, so every flow the suite drives proves its
 * events match their declarations; elsewhere it is a log line and `tramita_event_payloads_invalid_total`,
 * and the event is still recorded (its change must not fail for it). The validators are compiled once
 * per kind, on the first event of that kind (TypeBox's compiler is loaded then, not at start: issue 34).
 */
import { createRequire } from 'node:module';
import type * as TypeBoxCompile from 'typebox/compile';
import { telemetry } from '../observability/telemetry.ts';
import { EVENTS, type EventKind } from './catalog.ts';

type Validator = ReturnType<typeof TypeBoxCompile.Compile>;
let compiler: typeof TypeBoxCompile.Compile | undefined;
const validators = new Map<EventKind, Validator>();

/** Node's test runner marks the processes it runs test files in. */
const UNDER_TEST = process.env.NODE_TEST_CONTEXT !== undefined;

export class EventPayloadError extends Error {
  constructor(kind: string, problems: string[]) {
    super(`event ${kind}: data does not match its declaration (platform/events/catalog.ts): ${problems.join('; ')}`);
    this.name = 'EventPayloadError';
  }
}

/** What is wrong with `data` for `kind` (empty when it matches). */
export function payloadProblems(kind: EventKind, data: unknown): string[] {
  let v = validators.get(kind);
  if (!v) {
    compiler ??= (createRequire(import.meta.url)('typebox/compile') as typeof TypeBoxCompile).Compile;
    v = compiler(EVENTS[kind].payload);
    validators.set(kind, v);
  }
  if (v.Check(data)) return [];
  return [...v.Errors(data)].map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** Checks `data`; throws under the test runner, else reports through `report` (a log line) and the metric. */
export function checkPayload(kind: EventKind, data: unknown, report: (problems: string[]) => void, strict = UNDER_TEST): void {
  const problems = payloadProblems(kind, data);
  if (problems.length === 0) return;
  if (strict) throw new EventPayloadError(kind, problems);
  telemetry.eventPayloadsInvalid.inc({ kind });
  report(problems);
}
