/** Reais written by people (settings, the operator's CLI) into centavos. A leaf: config.ts imports it. */
import { ConfigError } from '../../config-error.ts';

/** "12,50" or "12.50" → 1250. Money is integer centavos everywhere past the edges. */
export function brlToCentavos(raw: string, name = 'amount'): number {
  const m = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(raw.trim());
  if (!m) throw new ConfigError(`${name} must be an amount in BRL like 100 or 12,50, got "${raw}"`);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}
