/**
 * TJRJ's public precatório API (reference/upstream/wave2.md §G, precatorios.md §2), the one court
 * list reachable without a captcha: the debtor entities (a tree) and, per entity, the pages of its
 * payment order. The items' keys were never captured (the SPA shows ordem, número, situação,
 * natureza, orçamento, valor histórico, saldo atualizado, entidade), so the port hands them on as the
 * API sends them and the reader matches their names as it matches a list's header. Every failure
 * throws SourceError; an empty page is the end of a list.
 */
import type { SourceInfo } from './sources.ts';

export interface DebtorEntity {
  id: number;
  paiId: number | null;
  nome: string;
}

export interface TjrjPrecatorioSource {
  readonly info: SourceInfo;
  entities(signal?: AbortSignal): Promise<DebtorEntity[]>;
  /** One page (1-based) of the entity's chronological payment order (`ordemPagamento=2`), under regime `O` (ordinário) or `E` (especial). */
  orderPage(entityId: number, regime: 'O' | 'E', page: number, size: number, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}
