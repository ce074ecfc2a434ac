/**
 * New public documents of a case (issue 53) are news for the monitors following it:
 * `atualizacao_processo_concluida` with `motivo: DOCUMENTOS` and the documents (docs/webhooks.md).
 * Written in the transaction that stores the list, so an announced document is a stored one.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { caseTopic, followers } from '../../platform/events/subscriptions.ts';
import { eventOrigin } from '../../platform/ports/case-metadata.ts';
import type { PublicDocumentRecord } from '../../platform/ports/case-details.ts';

export async function announceDocuments(
  events: EventLog,
  trx: Transaction<DB>,
  { numeroCnj, tribunal, sandbox, fonte }: { numeroCnj: string; tribunal: string; sandbox: boolean; fonte: string },
  added: PublicDocumentRecord[],
  now: string,
): Promise<void> {
  const audience = await followers(trx, caseTopic(numeroCnj));
  if (audience.length === 0) return;
  await events.record(trx, {
    kind: 'atualizacao_processo_concluida',
    numeroCnj,
    tribunal,
    source: eventOrigin({ name: fonte, sandbox }),
    audience,
    data: {
      numeroCnj,
      tribunal,
      motivo: 'DOCUMENTOS',
      novasMovimentacoes: 0,
      documentos: added.map((d) => ({
        id: d.id,
        titulo: d.titulo,
        tipo: d.tipo,
        dataJuntada: d.dataJuntada,
        fonte: d.fonte ?? fonte,
        origem: d.origem ?? 'provedor',
        publico: (d.restricao ?? null) === null,
      })),
      concluidaEm: now,
    },
  });
}
