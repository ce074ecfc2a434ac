/**
 * The case capability's two jobs, declared in a leaf: the case service enqueues the enrichment and the
 * refresh module runs both, so neither imports the other for them (issue 55 item 4).
 */
import { defineJob } from '../../platform/jobs/job-type.ts';

export const REFRESH_JOB = 'processos.atualizar';
/** A case asked again of its sources; one live job per case. A failing source is retried after 30 s, 2 min, 8 min, then ERRO. */
export const REFRESH = defineJob<{ numeroCnj: string }>({
  kind: REFRESH_JOB,
  maxAttempts: 4,
  dedupeKey: ({ numeroCnj }) => `${REFRESH_JOB}:${numeroCnj}`,
  retryDelayMs: (attempt) => 30_000 * 4 ** (attempt - 1),
});

export const ENRICH_JOB = 'processos.enriquecer';
/** Wait before attempt n + 1 of the enrichment job: 15 s, 30 s, 1 min, 2 min. */
export const enrichRetryDelayMs = (attempt: number) => 15_000 * 2 ** (attempt - 1);
/**
 * Parties, lawyers and value of a case (refresh.ts's enrichJob runs it; the case service enqueues it):
 * of a newly stored case; of a monitored case whose check brought new movements; and, with `documents`,
 * the part of a refresh whose details sources failed while DataJud answered (DESIGN.md §5: the
 * auxiliary work is retried on its own). One live job per case and kind.
 */
export const ENRICH = defineJob<{ numeroCnj: string; documents?: boolean }>({
  kind: ENRICH_JOB,
  maxAttempts: 5,
  dedupeKey: ({ numeroCnj, documents }) => `${ENRICH_JOB}:${numeroCnj}${documents ? ':documentos' : ''}`,
  retryDelayMs: enrichRetryDelayMs,
});
