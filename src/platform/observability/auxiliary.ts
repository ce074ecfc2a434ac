/**
 * An auxiliary source failed beside main work that was kept (DESIGN.md §5, "Main work and auxiliary
 * work"): DJEN or a court's consultation, asked for a case's parties or page while DataJud's movements
 * were stored and announced. One counter and one warn line naming the court, the source, the step and
 * the reason; never the case's parties or the upstream's text. The caller schedules the retry.
 */
import type { Logger } from 'pino';
import { SourceError } from '../ports/source-error.ts';
import { telemetry } from './telemetry.ts';

/** What the auxiliary source was asked for: `partes` (parties, lawyers, value), `diario` (a monitored case's DJEN communications). */
export type AuxiliaryStep = 'partes' | 'diario';

export function auxiliaryFailed(log: Pick<Logger, 'warn'>, f: { tribunal: string | null; step: AuxiliaryStep; err: unknown; retry: string }): void {
  const source = f.err instanceof SourceError ? f.err.source : 'interno';
  const failure = f.err instanceof SourceError ? f.err.failure : 'internal';
  telemetry.auxiliaryFailures.labels(source, f.step, failure).inc();
  log.warn(
    { tribunal: f.tribunal, source, step: f.step, failure, retry: f.retry },
    `auxiliary source failed: ${source} (${f.step}, ${failure}); the main work was kept, ${f.retry}`,
  );
}
