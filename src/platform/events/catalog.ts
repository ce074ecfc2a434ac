/**
 * Every event kind Tramita emits (spec §6.4), each declared once (declare.ts: when, payload schema,
 * audience, integrator shape) in its family's file. The order is the catalog's everywhere: the console,
 * docs/webhooks.md, the SDK. A new kind is one declaration here plus its emitter (docs/architecture.md).
 */
import type { Static } from 'typebox';
import { accountEvents } from './catalog-account.ts';
import { caseEvents } from './catalog-cases.ts';
import { publicationEvents } from './catalog-publications.ts';
import type { Audience } from './audience.ts';

const { resultado_busca_oab_async, ...gazettes } = publicationEvents;
const { resumo_ia_concluido, ...cases } = caseEvents;
const { teste, webhook_desativado, ...administrative } = accountEvents;

export const EVENTS = {
  ...cases,
  ...gazettes,
  resultado_busca_oab_async,
  resumo_ia_concluido,
  ...administrative,
  webhook_desativado,
  teste,
} as const;

export type EventKind = keyof typeof EVENTS;
type Declared = typeof EVENTS;

/** The `data` the emitter of `K` passes (its declared schema's type). */
export type EventData<K extends EventKind> = Static<Declared[K]['payload']>;

/** A movement as `nova_movimentacao` carries it (the case store's presenter returns it). */
export type EventMovement = EventData<'nova_movimentacao'>['movimentacoes'][number];

/** The recipients the emitter may name: only those its audience rule admits (declare.ts AudienceRule). */
type Recipients<A> = (A extends { asker: true } ? { accountId?: string } : { accountId?: undefined }) &
  (A extends { named: true } ? { audience?: Audience[] } : { audience?: undefined });

/** A kind and its data, correlated: what an emitter that picks among kinds builds. */
export type EventOf<K extends EventKind = EventKind> = { [k in K]: { kind: k; data: EventData<k> } & Recipients<Declared[k]['audience']> }[K];
