/**
 * The operator's changes to an account from the command line (invitations, keys, credits, status) go into the
 * account's audit log like the console's own, with `cli` as the actor: the people of the account see
 * who created or revoked a key even when it was not one of them. `details` holds no secret.
 */
import type { Services } from '../../platform/services.ts';
import { ConsoleStore } from './store.ts';

/** `userId`: the console person the change is about, if any (an invitation's). */
export async function auditOperator(
  s: Services,
  entry: { accountId: string; action: string; userId?: string; target?: string; details?: Record<string, unknown> },
): Promise<void> {
  await new ConsoleStore(s.db, s.clock).audit({ ...entry, userId: entry.userId ?? null, actor: 'cli' });
}
