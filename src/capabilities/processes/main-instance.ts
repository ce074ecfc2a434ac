/**
 * The instance that describes a case: the first-instance document when there is one. The store files
 * the case's class by it; covers and lists show its class and court unit.
 */
export function mainInstance<T extends { grau: string }>(c: { instancias: T[] }): T | undefined {
  return c.instancias.find((i) => i.grau === 'G1') ?? c.instancias[0];
}
