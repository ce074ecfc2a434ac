/**
 * A movement as a person reads it, the one text REST (`conteudo`), webhooks (`event_data.conteudo`)
 * and summaries print: the TPU name, or its parent's with it for leaves that need one, and what the
 * complements add ("Conclusão (para julgamento)"). Integrators dedupe movements on `data` + `conteudo`
 * (reference/integrator-conventions.md §4.3), so both channels must print it identically.
 */
import type { MovementComplement } from '../../platform/ports/case-metadata.ts';

/** TPU leaves whose name only makes sense under their parent ("Definitivo" under "Arquivamento"). */
const LEAF_NAMES = new Map<number, string>([
  [245, 'Arquivamento provisório'],
  [246, 'Arquivamento definitivo'],
]);

/** The movement as a person reads it: its name, or its parent's with it, and what its complements add. */
export function describeMovement(m: { codigo: string; nome: string; complementos: MovementComplement[] }): string {
  const name = LEAF_NAMES.get(Number(m.codigo)) ?? m.nome;
  const lower = name.toLocaleLowerCase('pt-BR');
  const extra: string[] = [];
  for (const c of m.complementos) {
    if (!c.nome || c.nome.toLocaleLowerCase('pt-BR') === lower) continue;
    // "Petição" with complement "Petição (outras)": the complement says it all.
    if (c.nome.toLocaleLowerCase('pt-BR').startsWith(lower)) return c.nome;
    extra.push(c.nome);
  }
  return extra.length > 0 ? `${name} (${extra.join('; ')})` : name;
}
