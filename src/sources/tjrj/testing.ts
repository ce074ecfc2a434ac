/**
 * A page of TJRJ's `GET /ordemPagamento` built exactly from its description (issue 30, from the
 * court's own application code). THERE IS NO RAW CAPTURE OF TJRJ'S PRECATÓRIO API: the keys, their
 * order, `{Resultado: {Total, Precatorios}}`, `NumeroPrecatorio` `2009.01792-1 (2009.01475-2)`, the
 * ordinal `2º` and `SaldoFormatado` `R$ …` (null once paid) are as described; the rest is our reading
 * [inferred]: `Total` and `Orcamento` (a year) as JSON integers, `DataProtocolo` as `dd/mm/aaaa`
 * (every other value comes formatted for display), the values themselves invented.
 */
export function tjrjDescribedPage(): { Resultado: { Total: number; Precatorios: Record<string, unknown>[] } } {
  return {
    Resultado: {
      Total: 2,
      Precatorios: [
        {
          OrdemPagamento: '1º',
          EntidadeDevedora: 'ESTADO DO RIO DE JANEIRO',
          NumeroPrecatorio: '2009.01792-1 (2009.01475-2)',
          SituacaoTratada: 'Aguardando pagamento',
          Natureza: 'Alimentícia',
          DataProtocolo: '15/06/2009',
          Orcamento: 2011,
          ValorHistoricoFormatado: 'R$ 45.210,33',
          SaldoFormatado: 'R$ 98.765,43',
        },
        {
          OrdemPagamento: '2º',
          EntidadeDevedora: 'ESTADO DO RIO DE JANEIRO',
          NumeroPrecatorio: '2009.01801-7 (2009.01480-9)',
          SituacaoTratada: 'Pago',
          Natureza: 'Comum',
          DataProtocolo: '22/06/2009',
          Orcamento: 2011,
          ValorHistoricoFormatado: 'R$ 1.234.567,89',
          SaldoFormatado: null,
        },
      ],
    },
  };
}
