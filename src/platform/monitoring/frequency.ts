/**
 * Check frequencies of monitors and radars, and their renewal period. One unit is
 * TRAMITA_MONITOR_INTERVAL_MS (default 1 h, the production floor): HORARIA is one unit, DIARIA 24,
 * SEMANAL 168, MENSAL 720 (30 days, what integrators of the commercial service send, conventions
 * §4.13), so lowering the setting for a demo or a test speeds every frequency alike.
 */
import type { MonitorFrequency } from '../db/schema.ts';

export const FREQUENCIES: readonly MonitorFrequency[] = ['HORARIA', 'DIARIA', 'SEMANAL', 'MENSAL'];
export const DEFAULT_FREQUENCY: MonitorFrequency = 'DIARIA';
/** Each frequency's period in TRAMITA_MONITOR_INTERVAL_MS units. */
export const FREQUENCY_UNITS: Readonly<Record<MonitorFrequency, number>> = { HORARIA: 1, DIARIA: 24, SEMANAL: 168, MENSAL: 720 };

export function frequencyMs(f: MonitorFrequency, intervalMs: number): number {
  return FREQUENCY_UNITS[f] * intervalMs;
}

/** A monitor or radar is paid per period of 30 days: at creation, then at each renewal. */
export const RENEWAL_PERIOD_MS = 30 * 24 * 3_600_000;

/** How often the recurring cycle jobs look for due monitors: often enough for the shortest frequency. */
export function cycleMs(intervalMs: number): number {
  return Math.min(intervalMs, 60_000);
}
