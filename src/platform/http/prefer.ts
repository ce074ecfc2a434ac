/**
 * The `Prefer` request header (RFC 7240) as Tramita honours it:
 * - `respond-async`: answer 202 at once (async-eligible operations);
 * - `wait=N`: shorten the synchronous window to N seconds;
 * - `return=estimate`: price the operation without running or charging it;
 * - `return=minimal`: a case lookup answers DataJud's fields at once instead of waiting, within the
 *   window, for the parties, lawyers, value and movement texts of the case-details sources (issue 43);
 *   they are filled in the background.
 * Unknown preferences are ignored, as the RFC requires.
 */
import type { FastifyRequest } from 'fastify';

export interface Preferences {
  respondAsync: boolean;
  waitMs: number | undefined;
  estimate: boolean;
  minimal: boolean;
}

export function parsePrefer(req: FastifyRequest): Preferences {
  const raw = req.headers.prefer;
  const prefs: Preferences = { respondAsync: false, waitMs: undefined, estimate: false, minimal: false };
  if (!raw) return prefs;
  for (const token of (Array.isArray(raw) ? raw.join(',') : raw).split(/[,;]/)) {
    const [name, value] = token
      .trim()
      .toLowerCase()
      .split('=')
      .map((s) => s.trim().replace(/^"|"$/g, ''));
    if (name === 'respond-async') prefs.respondAsync = true;
    else if (name === 'wait' && /^\d+$/.test(value ?? '')) prefs.waitMs = Number(value) * 1000;
    else if (name === 'return' && value === 'estimate') prefs.estimate = true;
    else if (name === 'return' && value === 'minimal') prefs.minimal = true;
  }
  return prefs;
}
