/** `T | null` for TypeBox schemas, request and response alike. */
import { Type } from 'typebox';

/**
 * Null comes first: the validator coerces types, and with the other branch first a JSON `null` sent
 * for a string field would be coerced to "" and never reach the null branch.
 */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
