/**
 * The simulated TJRJ precatório API answers with the structure TJRJ's is described to have (DESIGN.md
 * §5). THERE IS NO RAW CAPTURE of this API: the reference is the page built from the description of
 * TJRJ's application code (sources/tjrj/testing.ts, which says what is described and what inferred),
 * compared over HTTP by the structural comparator (sandbox/parity.ts): keys and their order, types,
 * `R$ …` amounts, null saldos, the date's spelling.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tjrjDescribedPage } from '../../sources/tjrj/testing.ts';
import { structuralDifferences } from '../parity.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const page = async (n: number) =>
  (
    await fetch(`${sb.tjrjPrecatoriosUrl}/ordemPagamento?idEntidadeDevedora=1&ordemPagamento=2&pagina=${n}&regimeEntidade=E&tamanhoPagina=100`)
  ).json() as Promise<any>;

test(
  "GET /ordemPagamento answers {Resultado: {Total, Precatorios}} with TJRJ's item keys " + 'in order, ordinals, R$ amounts, null saldos once paid, dd/mm/aaaa',
  async () => {
    const body = await page(1);
    assert.deepEqual(structuralDifferences(tjrjDescribedPage(), body), []);
    assert.equal(body.Resultado.Total, sb.tjrj.list(1).length);
    assert.ok(
      body.Resultado.Precatorios.every(
        (p: any) =>
          /^\d+º$/.test(p.OrdemPagamento) &&
          /^\d{4}\.\d{5}-\d \(\d{4}\.\d{5}-\d\)$/.test(p.NumeroPrecatorio) &&
          /^R\$ [\d.]+,\d{2}$/.test(p.ValorHistoricoFormatado),
      ),
    );
  },
);

test('the comparison catches a simulator that drifts: DataProtocolo in ISO, the old keys', async () => {
  const body = await page(1);
  const iso = {
    Resultado: {
      ...body.Resultado,
      Precatorios: body.Resultado.Precatorios.map((p: any) => ({ ...p, DataProtocolo: p.DataProtocolo.split('/').reverse().join('-') })),
    },
  };
  assert.ok(structuralDifferences(tjrjDescribedPage(), iso).some((d) => /DataProtocolo: the simulator sends string:iso-date/.test(d)));
  const old = { Resultado: { Precatorios: [{ Ordem: 1, NumeroPrecatorio: '2019.01001-1', SaldoAtualizado: 1234.5 }], TotalRegistros: 1 } };
  assert.ok(structuralDifferences(tjrjDescribedPage(), old).length > 0);
});
