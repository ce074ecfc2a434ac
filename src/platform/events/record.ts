/**
 * Domain events: every change the stores see that someone may want to hear about (a new case, new
 * movements, a finished refresh, later new publications). Written in the same transaction as the
 * change, so an event exists exactly when its change does; monitors and webhooks read them from here.
 * Event kinds use the names of spec §6.4.
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { newId } from '../ids.ts';

export type DomainEventKind = 'novo_processo' | 'nova_movimentacao' | 'atualizacao_processo_concluida';

export interface NewDomainEvent {
  kind: DomainEventKind;
  numeroCnj: string | null;
  tribunal: string | null;
  /** Only for events that belong to one account (the refresh it asked for). */
  accountId?: string;
  data: Record<string, unknown>;
  /** The upstream record(s) behind the event, for RAW webhook payloads. */
  raw?: unknown;
}

export async function recordEvent(trx: Transaction<DB> | Kysely<DB>, clock: Clock, e: NewDomainEvent): Promise<string> {
  const id = newId('evt');
  await trx.insertInto('domain_events').values({
    id, kind: e.kind, numero_cnj: e.numeroCnj, tribunal: e.tribunal, account_id: e.accountId ?? null,
    data: JSON.stringify(e.data), raw: e.raw === undefined ? null : JSON.stringify(e.raw), created_at: iso(clock.now()),
  }).execute();
  return id;
}
