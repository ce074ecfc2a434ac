/**
 * The `cobranca` block of a monitor's answer (conventions of the commercial service's integrators):
 * the recurring charge as they read it. One view and one schema for every monitor kind that shows it.
 */
import { Type } from 'typebox';
import { toBrl } from '../billing/prices.ts';
import { Nullable } from '../http/nullable.ts';
import type { PaidMonitorRow } from './tables.ts';

export const Cobranca = Type.Object({
  recorrencia: Type.Literal('MENSAL'), valorMensal: Type.Number(), proximoDebitoEm: Nullable(Type.String()),
  status: Type.String({ description: 'Same as the monitor\'s `status`.' }), observacao: Nullable(Type.String()),
});

/** The next debit only while ATIVO; a SUSPENSO monitor says how to resume it. */
export function cobrancaView(m: Pick<PaidMonitorRow, 'status' | 'preco_centavos' | 'proxima_cobranca_em'>) {
  return {
    recorrencia: 'MENSAL', valorMensal: toBrl(m.preco_centavos), proximoDebitoEm: m.status === 'ATIVO' ? m.proxima_cobranca_em : null, status: m.status,
    observacao: m.status === 'SUSPENSO' ? 'A renovação não pôde ser paga: crie o monitoramento de novo para reativá-lo.' : null,
  } as const;
}
