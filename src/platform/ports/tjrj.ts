/**
 * TJRJ's public precatório API (reference/upstream/wave2.md §G, precatorios.md §2), the one court
 * list reachable without a captcha: the debtor entities (a tree) and, per entity, the pages of its
 * payment order. A page is `{Resultado: {Total, Precatorios: [...]}}` and its items' keys are known
 * from the court's own application code (issue 30; no raw answer captured): the connector reads them
 * by name into TjrjPrecatorio, values as TJRJ prints them. Every failure throws SourceError; an empty
 * page is the end of a list.
 */
import type { SourceInfo } from './case-metadata.ts';

export interface DebtorEntity {
  id: number;
  paiId: number | null;
  nome: string;
}

/** One item of `Precatorios[]`, each field from its key, as printed (null where TJRJ sent none). */
export interface TjrjPrecatorio {
  /** `OrdemPagamento`, an ordinal: `2º`. */
  ordemPagamento: string | null;
  /** `EntidadeDevedora` */
  entidadeDevedora: string | null;
  /** `NumeroPrecatorio`, e.g. `2009.01792-1 (2009.01475-2)`. */
  numeroPrecatorio: string;
  /** `SituacaoTratada` */
  situacao: string | null;
  /** `Natureza` */
  natureza: string | null;
  /** `DataProtocolo` */
  dataProtocolo: string | null;
  /** `Orcamento`: the budget year. */
  orcamento: number | null;
  /** `ValorHistoricoFormatado`: `R$ 12.345,67`. */
  valorHistorico: string | null;
  /** `SaldoFormatado`: `R$ …`, null once paid. */
  saldo: string | null;
}

export interface TjrjOrderPage {
  /** `Resultado.Total`: the whole list's length. */
  total: number | null;
  precatorios: TjrjPrecatorio[];
  /** Items that did not read (no `NumeroPrecatorio`, a value of the wrong type): why, one each. */
  unread: string[];
}

export interface TjrjPrecatorioSource {
  readonly info: SourceInfo;
  entities(signal?: AbortSignal): Promise<DebtorEntity[]>;
  /** One page (1-based) of the entity's chronological payment order (`ordemPagamento=2`), under regime `O` (ordinário) or `E` (especial). */
  orderPage(entityId: number, regime: 'O' | 'E', page: number, size: number, signal?: AbortSignal): Promise<TjrjOrderPage>;
  close(): Promise<void>;
}
