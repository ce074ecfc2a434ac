/**
 * The instance that describes a case: the first-instance document when there is one. The store files
 * the case's class by it; covers and lists show its class and court unit.
 */
export function mainInstance<T extends { grau: string }>(c: { instancias: T[] }): T | undefined {
  return c.instancias.find((i) => i.grau === 'G1') ?? c.instancias[0];
}

/** The grau codes of the instances a case has (DataJud's: G1, G2, JE, TR…). */
export function grausOf(c: { instancias: readonly { grau: string }[] }): string[] {
  return c.instancias.map((i) => i.grau);
}

const GRAUS: Record<string, { numero: number; nome: string }> = {
  G1: { numero: 1, nome: '1º grau' },
  JE: { numero: 1, nome: 'Juizado Especial' },
  G2: { numero: 2, nome: '2º grau' },
  TR: { numero: 2, nome: 'Turma Recursal' },
  TRU: { numero: 2, nome: 'Turma Regional de Uniformização' },
  TNU: { numero: 3, nome: 'Turma Nacional de Uniformização' },
  SUP: { numero: 3, nome: 'Tribunal superior' },
};
/** A DataJud grau code's degree (1, 2, 3) and name; an unknown code is of the first degree, named as printed. */
export const grauOf = (grau: string) => GRAUS[grau] ?? { numero: 1, nome: grau };
