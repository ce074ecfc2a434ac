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
