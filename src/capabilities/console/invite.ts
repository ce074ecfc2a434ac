/**
 * The operator's invitation (`tramita users invite ACCOUNT_ID EMAIL`, and the first start's sandbox
 * account): a one-time link, valid INVITE_TTL_MS, where the person sets their password. A new link
 * for the same person replaces the old one, and also serves to reset a forgotten password.
 */
import { ownBaseUrl } from '../../platform/http/absolute-url.ts';
import type { Services } from '../../platform/services.ts';
import { auditOperator } from './operator-audit.ts';
import { ConsoleStore, INVITE_TTL_MS } from './store.ts';

export const INVITE_TTL_HOURS = INVITE_TTL_MS / 3_600_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why an invitation was refused: `unknown_account` (exit 1 in the CLI) or a bad request (`invalid`, exit 2). */
export class InviteError extends Error {
  readonly kind: 'unknown_account' | 'invalid';
  constructor(kind: InviteError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export async function inviteUser(
  s: Services,
  accountId: string,
  email: string,
  baseUrl = ownBaseUrl(s.config),
): Promise<{ link: string; email: string; expiresAt: string }> {
  if (!EMAIL.test(email.trim()) || email.length > 254) throw new InviteError('invalid', `"${email}" is not an e-mail address`);
  if (!(await s.accounts.get(accountId))) throw new InviteError('unknown_account', `no account ${accountId}`);
  const store = new ConsoleStore(s.db, s.clock);
  const invited = await store.invite(accountId, email);
  if (!invited) throw new InviteError('invalid', `${email.trim().toLowerCase()} already belongs to another account`);
  await auditOperator(s, { accountId, userId: invited.user.id, action: 'usuario.convidar', details: { email: invited.user.email } });
  return { link: `${baseUrl}/console/convite/${invited.token}`, email: invited.user.email, expiresAt: invited.expiresAt };
}
