/**
 * A court changing its consultation pages, seen the day it happens (issue 44 item 5). Every
 * consultation's outcome comes here from the consultations connector: a success (the page was read),
 * the lines of a page read only in part (anomalies, by field), a failure (by step and reason). Each
 * failure is one warn line naming the court, the system, the step and what was unexpected, and each
 * page with anomalies one warn line naming the fields and how many; neither ever quotes a page (pages
 * carry names and CPFs). The counters are `tramita_consulta_*` (docs/ops/metrics.md; the
 * TramitaConsultaLayout alert in docs/ops/prometheus-alerts.yml); the last success and last failure per
 * court are what `GET /v1/integrador` shows in each court's `origens.estado` (this process's view).
 */
import { iso, systemClock, type Clock } from '../clock.ts';
import { telemetry } from './telemetry.ts';
import { upstreamLogger } from './upstreams.ts';

export interface ConsultaFailureState {
  em: string;
  /** The step that failed: `formulário de busca`, `busca`, `página do processo`… */
  etapa: string;
  /** The failure: `malformed`, `captcha`, `timeout`, `rate_limited`… */
  falha: string;
  /** What was unexpected, in words; never page content. */
  motivo: string;
}

export interface ConsultaCourtState {
  ultimoSucessoEm: string | null;
  ultimaFalha: ConsultaFailureState | null;
  /** Lines read in part since the process started, per field. */
  anomalias: Record<string, number>;
}

const states = new Map<string, ConsultaCourtState>();
let clock: Clock = systemClock;

/** The clock the states are stamped with (tests pin it; production keeps the system clock). */
export function stampConsultasWith(c: Clock): void {
  clock = c;
}

function stateOf(tribunal: string): ConsultaCourtState {
  let s = states.get(tribunal);
  if (!s) {
    s = { ultimoSucessoEm: null, ultimaFalha: null, anomalias: {} };
    states.set(tribunal, s);
  }
  return s;
}

/** A page of this court was read: a case, the explicit not-found, or a search answer. */
export function consultaRead(tribunal: string, sistema: string): void {
  telemetry.consultaSuccesses.labels(tribunal, sistema).inc();
  stateOf(tribunal).ultimoSucessoEm = iso(clock.now());
}

/** Lines of one page read only in part: counted per field, one warn line for the page. */
export function consultaAnomalies(tribunal: string, sistema: string, etapa: string, campos: readonly string[]): void {
  if (campos.length === 0) return;
  const counts: Record<string, number> = {};
  for (const campo of campos) counts[campo] = (counts[campo] ?? 0) + 1;
  const state = stateOf(tribunal);
  for (const [campo, n] of Object.entries(counts)) {
    telemetry.consultaAnomalies.labels(tribunal, sistema, campo).inc(n);
    state.anomalias[campo] = (state.anomalias[campo] ?? 0) + n;
  }
  upstreamLogger()?.warn(
    { tribunal, sistema, etapa, anomalias: counts },
    `consultation ${tribunal} (${sistema}): ${etapa} read in part (${Object.keys(counts).join(', ')}): the court may have changed its page`,
  );
}

/** A consultation of this court failed: one warn line (court, system, step, what was unexpected) and the counter. */
export function consultaFailed(tribunal: string, sistema: string, failure: Omit<ConsultaFailureState, 'em'>): void {
  telemetry.consultaFailures.labels(tribunal, sistema, failure.etapa, failure.falha).inc();
  stateOf(tribunal).ultimaFalha = { em: iso(clock.now()), ...failure };
  upstreamLogger()?.warn(
    { tribunal, sistema, etapa: failure.etapa, falha: failure.falha, motivo: failure.motivo },
    `consultation ${tribunal} (${sistema}) failed at ${failure.etapa}: ${failure.falha}`,
  );
}

/** This process's view of a court's consultation; null when it was never asked. */
export function consultaState(tribunal: string): ConsultaCourtState | null {
  const s = states.get(tribunal);
  return s ? { ...s, anomalias: { ...s.anomalias }, ultimaFalha: s.ultimaFalha && { ...s.ultimaFalha } } : null;
}

/** Tests start from nothing. */
export function resetConsultaStates(): void {
  states.clear();
}
