/**
 * How long a waiting caller waits for a lookup's auxiliary sources (issue 51; platform/request-path.ts):
 * at most TRAMITA_AUXILIARY_DEADLINE_MS past the main source's answer, then the answer says what is
 * pending and the enrichment job asks again, with retries.
 */
import type { Logger } from 'pino';
import { mensagem } from '../../platform/errors-pt.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import { callerWaiting, deadlineError } from '../../platform/request-path.ts';
import type { DetailsFailure } from './lookup.ts';

/** The auxiliary sources' answer did not come within the caller's deadline. */
export const DEADLINE = Symbol('deadline');

/**
 * The auxiliary answer, or DEADLINE when it is still out at the caller's deadline: what is still asked
 * is cut then (`auxiliary` aborted). Without a caller waiting (a job), no deadline: the answer is awaited.
 */
export async function withinDeadline<T>(pending: Promise<T>, auxiliary: AbortController): Promise<T | typeof DEADLINE> {
  const wait = callerWaiting();
  if (!wait) return pending;
  let timer: NodeJS.Timeout | undefined;
  const first = await Promise.race([
    pending,
    new Promise<typeof DEADLINE>((r) => {
      timer = setTimeout(r, wait.auxiliaryDeadlineMs, DEADLINE);
    }),
  ]);
  clearTimeout(timer);
  if (first === DEADLINE) auxiliary.abort(deadlineError(wait.auxiliaryDeadlineMs));
  return first;
}

/** What the lookup says when the parties' sources were still out at the deadline: pending, asked again in the background. */
export function pastDeadline(log: Logger, numeroCnj: string, source: string | null): DetailsFailure {
  telemetry.coverDetails.labels('deadline').inc();
  log.info({ numeroCnj, source }, 'case details still out at the deadline: answered without parties, enrichment scheduled');
  const why = mensagem('SOURCE_TIMEOUT', source ? { source, failure: 'timeout' } : { failure: 'timeout' });
  return {
    code: 'SOURCE_TIMEOUT',
    message: `As partes, os advogados e o valor ainda não vieram: ${why} Eles são pedidos de novo em segundo plano.`,
    source,
    failure: 'timeout',
  };
}
