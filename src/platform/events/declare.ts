/**
 * What declaring an event kind says (events/catalog.ts holds the declarations): when it is sent, the
 * `data` its emitter passes (a TypeBox schema: `EventLog.record` is typed by it and checks it), who
 * receives it, and how integrators see it (the shapers of integrator-shape.ts). docs/webhooks.md's
 * catalog and the SDK's event types (scripts/sdk-types.ts) are generated from the same declarations.
 */
import { Type, type TObject, type TProperties } from 'typebox';
import type { Shaper } from './integrator-shape.ts';

/**
 * Who receives an event, beside its feed row in `domain_events`:
 * - `asker`: the account it belongs to (the emitter passes `accountId`: who asked for the refresh, the
 *   summary, the asynchronous search), through the account webhook;
 * - `named`: the recipients the emitter names (`audience`: a monitor's or radar's own events, a case's
 *   followers), each through its monitor's `webhook_url`, else the account webhook;
 * - `subscribers`: the monitors subscribed to the case's topic (`cnj:<digits>`) for this kind, whoever's
 *   query or check brought the news (events/subscriptions.ts).
 * A kind with none of them (the webhook test) is only recorded; its emitter delivers it itself.
 */
export interface AudienceRule {
  readonly asker?: true;
  readonly named?: true;
  readonly subscribers?: true;
}

export interface EventDeclaration<P extends TObject = TObject, A extends AudienceRule = AudienceRule> {
  /** One line: the console's tooltip, the SDK's comment. */
  readonly summary: string;
  /** When it is sent, for docs/webhooks.md (Markdown); the summary when absent. */
  readonly description?: string;
  /** The `data` the emitter passes; the top level admits no other field. */
  readonly payload: P;
  readonly audience: A;
  /** How integrators see `data` (integrator-shape.ts), applied in this order. */
  readonly shape: readonly Shaper[];
  /** The legacy twin's name (spec §9.4), sent as a second delivery when the account asks for it. */
  readonly legacy?: string;
}

export const declareEvent = <P extends TProperties, A extends AudienceRule>(
  d: Omit<EventDeclaration<TObject<P>, A>, 'payload'> & { payload: P },
): EventDeclaration<TObject<P>, A> => ({ ...d, payload: Type.Object(d.payload, { additionalProperties: false }) });

/** The `data` integrators receive: the emitter's fields, then what the shapers add. */
export function deliveredSchema(d: EventDeclaration): TObject {
  const properties: TProperties = { ...d.payload.properties };
  for (const s of d.shape) Object.assign(properties, s.adds);
  return Type.Object(properties);
}

/** Who receives it, in words (docs/webhooks.md). */
export function audienceText(a: AudienceRule): string {
  const parts = [
    a.asker ? 'the account that asked (account webhook)' : null,
    a.named ? 'the monitors or radars it concerns (their `webhook_url`, else the account webhook)' : null,
    a.subscribers ? 'every monitor of the case' : null,
  ].filter((p) => p !== null);
  return parts.length === 0 ? 'the account URL, during the request' : parts.join('; ');
}
