/**
 * Under the test runner every event's `data` is checked against its kind's declared schema where it is
 * recorded (EventLog.record), and a mismatch throws: the types catch a wrong field at the emitter, this
 * catches what types cannot see (a spread, a cast, a value read from JSON), in every flow the suite
 * drives. Elsewhere nothing is checked: the first compile costs 35–60 ms and each kind about 9 more, on
 * the first event of each kind, which a server's first answers would pay (measured on this machine).
 * The validators are Ajv's (already in memory for the routes), without coercion, compiled once per kind.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { EVENTS, type EventKind } from './catalog.ts';

/** Node's test runner marks the processes it runs test files in (or runs in, with --test-isolation=none). */
export const CHECKED = process.env.NODE_TEST_CONTEXT !== undefined || process.execArgv.includes('--test');

let ajv: Ajv | undefined;
const validators = new Map<EventKind, ValidateFunction>();

export class EventPayloadError extends Error {
  constructor(kind: string, problems: string[]) {
    super(`event ${kind}: data does not match its declaration (platform/events/catalog.ts): ${problems.join('; ')}`);
    this.name = 'EventPayloadError';
  }
}

/** What is wrong with `data` for `kind` (empty when it matches): field names and the rule broken, never the values. */
export function payloadProblems(kind: EventKind, data: unknown): string[] {
  let v = validators.get(kind);
  if (!v) {
    // strict: false: TypeBox's own marks (`~kind`) beside the JSON Schema keywords are not keywords.
    ajv ??= new Ajv({ allErrors: true, strict: false });
    v = ajv.compile(EVENTS[kind].payload);
    validators.set(kind, v);
  }
  if (v(data)) return [];
  return (v.errors ?? []).map((e) => {
    const extra = typeof e.params.additionalProperty === 'string' ? `: ${e.params.additionalProperty}` : '';
    return `${e.instancePath || '/'} ${e.message}${extra}`;
  });
}

/** Throws EventPayloadError when `data` does not match (only where CHECKED, unless `checked` says otherwise). */
export function checkPayload(kind: EventKind, data: unknown, checked = CHECKED): void {
  if (!checked) return;
  const problems = payloadProblems(kind, data);
  if (problems.length > 0) throw new EventPayloadError(kind, problems);
}
