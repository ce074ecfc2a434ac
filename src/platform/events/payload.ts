/**
 * The bytes of a webhook body (spec §6.3): NORMALIZED `{id, event, source, created_at, data}`, BOTH adds
 * `raw`, RAW sends the upstream record itself, or the normalized shape when the event has none (a
 * monitor's own status events, a test). The body is built once per delivery and stored, so every
 * retry and resend sends the same bytes.
 */
import type { PayloadFormat } from '../db/schema.ts';

export interface EventEnvelope {
  id: string;
  event: string;
  source: string;
  created_at: string;
  data: unknown;
  raw: unknown;
}

export function eventBody(format: PayloadFormat, e: EventEnvelope): string {
  const normalized = { id: e.id, event: e.event, source: e.source, created_at: e.created_at, data: e.data };
  if (format === 'RAW' && e.raw != null) return JSON.stringify(e.raw);
  if (format === 'BOTH') return JSON.stringify({ ...normalized, raw: e.raw ?? null });
  return JSON.stringify(normalized);
}
