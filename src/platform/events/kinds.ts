/**
 * The event catalog's names (spec §6.4), read from the declarations (catalog.ts): every name Tramita
 * emits, what emits it, and the legacy twins. Receivers must handle `event` tolerantly (the list is
 * open), so adding a kind is not a breaking change.
 */
import { EVENTS, type EventKind } from './catalog.ts';

export type { EventKind };

export const EVENT_NAMES = Object.keys(EVENTS) as EventKind[];

/** Each kind's one-line summary (the console's tooltip). */
export const EVENT_KINDS = Object.fromEntries(EVENT_NAMES.map((k) => [k, EVENTS[k].summary])) as Record<EventKind, string>;

/** Legacy names (spec §9.4), sent as a second delivery of the same event when the account asks for them. */
export const LEGACY_NAMES: Partial<Record<EventKind, string>> = Object.fromEntries(
  EVENT_NAMES.flatMap((k) => {
    const legacy: string | undefined = EVENTS[k].legacy;
    return legacy ? [[k, legacy]] : [];
  }),
);

export function isEventKind(name: string): name is EventKind {
  return Object.hasOwn(EVENTS, name);
}
