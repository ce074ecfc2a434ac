/**
 * The twins integrators of the commercial service read on every paid monitor (conventions §4.13):
 * `ativo`, `valorMensal`, `moeda` and the `cobranca` block, from the monitor's own `status`, `preco`
 * and `proximaCobrancaEm`. Case and administrative monitors add them to their own tables
 * (platform/http/integrator-fields.ts), so they are written here once.
 */
import { Type } from 'typebox';
import { derived, same } from '../http/integrator-fields.ts';
import { Nullable } from '../http/nullable.ts';

/** What the twins read of a monitor's view. */
interface PaidMonitorView {
  status: 'ATIVO' | 'SUSPENSO' | 'REMOVIDO';
  preco: number;
  proximaCobrancaEm: string | null;
}

const SUSPENDED_NOTE = 'A renovação não pôde ser paga: crie o monitoramento de novo para reativá-lo.';

export const PAID_MONITOR_TWINS = {
  ativo: derived(Type.Boolean({ description: '`status` is ATIVO.' }), (v: PaidMonitorView) => v.status === 'ATIVO'),
  valorMensal: same('preco', 'Same as `preco`: BRL per 30-day period.'),
  moeda: derived(Type.Literal('BRL', { description: 'The currency of `valorMensal`.' }), () => 'BRL' as const),
  cobranca: derived(
    Type.Object(
      {
        recorrencia: Type.Literal('MENSAL'),
        valorMensal: Type.Number(),
        proximoDebitoEm: Nullable(Type.String()),
        status: Type.String({ description: "Same as the monitor's `status`." }),
        observacao: Nullable(Type.String()),
      },
      { description: 'The monthly charge: `preco`, `proximaCobrancaEm` and `status`, and why a SUSPENSO one stopped.' },
    ),
    (v: PaidMonitorView) => ({
      recorrencia: 'MENSAL' as const,
      valorMensal: v.preco,
      proximoDebitoEm: v.proximaCobrancaEm,
      status: v.status,
      observacao: v.status === 'SUSPENSO' ? SUSPENDED_NOTE : null,
    }),
  ),
} as const;
