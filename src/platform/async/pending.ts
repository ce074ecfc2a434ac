/**
 * The pending side of one operation run (spec §3.2): whether it answered 202, and so whether its final
 * response must be stored for the status URL. Its state changes only through its own methods:
 * sync → finishing (the work ended inside the window: it stays synchronous) or sync → pending (the
 * window elapsed, or the client asked for 202: the row is written). Once finishing it never goes
 * pending, so a result that is being written is never also answered with a 202.
 */
import { backgroundFailureLevel } from '../db/outage.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../db/schema.ts';
import type { StoredResponse } from '../http/stored-response.ts';
import type { AsyncRequestStore } from './store.ts';

/** What the pending row records of its request; read only when the run goes pending (most never do). */
export interface PendingRequest {
  id: string;
  method: string;
  url: string;
  auth?: { account: { id: string } };
  log: Pick<Logger, 'error' | 'warn'>;
}

export class PendingOperation {
  #state: 'sync' | 'finishing' | 'pending' = 'sync';
  /** Resolves to whether the pending row was written (never rejects). */
  #opened: Promise<boolean> = Promise.resolve(false);
  readonly #store: AsyncRequestStore;
  readonly #req: PendingRequest;

  constructor(store: AsyncRequestStore, req: PendingRequest) {
    this.#store = store;
    this.#req = req;
  }

  /** Writes the pending row, unless the work already finished; false then. */
  goPending(): boolean {
    if (this.#state === 'finishing') return false;
    this.#state = 'pending';
    const req = this.#req;
    this.#opened = this.#store.open({ id: req.id, accountId: req.auth!.account.id, method: req.method, path: req.url.split('?')[0] }).then(
      () => true,
      (err) => {
        req.log[backgroundFailureLevel(err)]({ err }, 'could not record the pending operation');
        return false;
      },
    );
    return true;
  }

  /** Whether the pending row was written (after goPending, once it is). */
  get opened(): Promise<boolean> {
    return this.#opened;
  }

  /** The work ended: a run still synchronous stays so. Resolves to whether the operation is pending. */
  finish(): Promise<boolean> {
    if (this.#state === 'sync') this.#state = 'finishing';
    return this.#opened;
  }

  /** Stores the final response of a pending operation (inside `trx` when it commits with the charge). */
  async complete(response: StoredResponse, trx?: Kysely<DB> | Transaction<DB>): Promise<void> {
    if (await this.#opened) await this.#store.complete(this.#req.id, response, trx);
  }
}
