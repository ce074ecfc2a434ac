/**
 * TjrjConnector on a page built from the description of TJRJ's answer (testing.ts: there is no raw
 * capture of this API; the keys come from the court's application code, issue 30), served on 127.0.0.1:
 * each item read by its keys, as a person reads the list; what does not read is set apart, never guessed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SourceError } from '../../platform/ports/source-error.ts';
import { TjrjConnector } from './connector.ts';
import { tjrjDescribedPage } from './testing.ts';

let server: Server;
let answer: unknown;
let tjrj: TjrjConnector;
before(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tjrj = new TjrjConnector({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, perMinute: 100_000, retries: 0 });
});
after(async () => {
  await tjrj.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('a page of the payment order: Total, and each item field by field from its key', async () => {
  answer = tjrjDescribedPage();
  const page = await tjrj.orderPage(1, 'E', 1, 100);
  assert.equal(page.total, 2);
  assert.deepEqual(page.unread, []);
  assert.deepEqual(page.precatorios, [
    {
      ordemPagamento: '1º',
      entidadeDevedora: 'ESTADO DO RIO DE JANEIRO',
      numeroPrecatorio: '2009.01792-1 (2009.01475-2)',
      situacao: 'Aguardando pagamento',
      natureza: 'Alimentícia',
      dataProtocolo: '15/06/2009',
      orcamento: 2011,
      valorHistorico: 'R$ 45.210,33',
      saldo: 'R$ 98.765,43',
    },
    {
      ordemPagamento: '2º',
      entidadeDevedora: 'ESTADO DO RIO DE JANEIRO',
      numeroPrecatorio: '2009.01801-7 (2009.01480-9)',
      situacao: 'Pago',
      natureza: 'Comum',
      dataProtocolo: '22/06/2009',
      orcamento: 2011,
      valorHistorico: 'R$ 1.234.567,89',
      saldo: null,
    },
  ]);
});

test(
  'keys are read by name only: an item under other names does not read ' + '(and says why); no Resultado.Precatorios is malformed; a null list is the end',
  async () => {
    const [item] = tjrjDescribedPage().Resultado.Precatorios;
    const { NumeroPrecatorio, ...rest } = item;
    answer = { Resultado: { Total: 3, Precatorios: [{ ...rest, Numero: NumeroPrecatorio }, { ...item, Orcamento: 'dois mil' }, item] } };
    const page = await tjrj.orderPage(1, 'E', 1, 100);
    assert.deepEqual(page.unread, ['no NumeroPrecatorio', 'Orcamento is not a year']);
    assert.equal(page.precatorios.length, 1);
    answer = { Resultado: { TotalRegistros: 1, Itens: [item] } };
    await assert.rejects(tjrj.orderPage(1, 'E', 1, 100), (err) => err instanceof SourceError && err.failure === 'malformed');
    answer = { Resultado: null };
    assert.deepEqual(await tjrj.orderPage(1, 'E', 9, 100), { total: 0, precatorios: [], unread: [] });
  },
);
