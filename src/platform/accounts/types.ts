/** An account and a key's owner (a leaf: the store and its key cache share them without a circle). */
import type { AccountsTable } from '../db/schema.ts';

export type Account = AccountsTable;

export interface KeyOwner {
  keyId: string;
  account: Account;
}
