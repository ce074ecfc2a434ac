/** A short, stable tag of a listing's filters, so a cursor belongs to its listing without growing with a hundred OABs. */
import { createHash } from 'node:crypto';

export function listingTag(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 16);
}
