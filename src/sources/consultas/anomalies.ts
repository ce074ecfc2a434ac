/**
 * A line of a court's page that the parser read only in part (issue 44): it keeps what it could (a
 * party with its printed name and no role, a lawyer with no OAB, a movement with its text and the day
 * without the time) and the field is noted here. The consultations connector counts each note
 * (`tramita_consulta_anomalias_total{tribunal,sistema,campo}`) and writes one warn line per page,
 * never the line itself. The fields are this closed list, so the metric's labels stay bounded.
 */
export type AnomalyField =
  | 'parte.tipo'
  | 'parte.documento'
  | 'parte.linha'
  | 'advogado.oab'
  | 'movimento.data'
  | 'movimento.linha'
  | 'capa.campo'
  | 'busca.linha'
  | 'incidente.numero'
  /** A section the page has (parties) whose rows read as nothing: the layout changed under the parser (issue 52). */
  | 'partes.secao'
  /** A list read with fewer rows than the count the page prints, and no further page read: answered partial (`limitado`). */
  | 'lista.contagem'
  /** The court answered a message Tramita does not know (quoted in the warn line, never read as "not found"). */
  | 'mensagem.desconhecida'
  | 'documento.linha';

export class Anomalies {
  readonly campos: AnomalyField[] = [];
  note(campo: AnomalyField): void {
    this.campos.push(campo);
  }
}

/** The step of a consultation's flow that failed (metric label and warn line; closed list). */
export type ConsultaStep = 'formulario' | 'busca' | 'lista' | 'detalhe' | 'partes' | 'dados' | 'documentos' | 'documento' | 'consulta';

const steps = new WeakMap<Error, ConsultaStep>();

/** Marks an error with the step it failed in (the first mark wins: the innermost step knows best). */
export function atStep<E extends Error>(err: E, step: ConsultaStep): E {
  if (!steps.has(err)) steps.set(err, step);
  return err;
}

export function stepOf(err: unknown): ConsultaStep {
  return (err instanceof Error && steps.get(err)) || 'consulta';
}

const errorAnomalies = new WeakMap<Error, AnomalyField[]>();

/** Marks a failure with what the page showed that the parser did not know (an unknown message): counted like a page's anomalies. */
export function withAnomaly<E extends Error>(err: E, campo: AnomalyField): E {
  errorAnomalies.set(err, [...(errorAnomalies.get(err) ?? []), campo]);
  return err;
}

export function anomaliesOf(err: unknown): AnomalyField[] {
  return (err instanceof Error && errorAnomalies.get(err)) || [];
}
