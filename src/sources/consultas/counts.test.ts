/**
 * The page checks itself (issue 52 item 2): wherever a page prints a count, the rows read are checked
 * against it, and a page whose count disagrees is never answered complete, on every system: PJe's
 * detail lists and search footer, e-SAJ's hit counter; a parties section that yields no party is an
 * anomaly. And the messages (item 4): every system's message box classified by its words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageText } from '../http/body.ts';
import { Anomalies } from './anomalies.ts';
import { parseEsajPage } from './esaj/parse.ts';
import { parseEsajSearch } from './esaj/search.ts';
import { classifyMessage, quoted } from './messages.ts';
import { parsePjeDetail, parsePjeSearch } from './pje/parse.ts';

const fixture = (path: string) => pageText(readFileSync(new URL(`./fixtures/${path}`, import.meta.url)));
const TRF5 = fixture('set3/trf5_pje_detalhe_0058457-31.2025.4.05.8000.html');

test('PJe detail: a list whose printed count exceeds its rows is partial (limitado), with an anomaly when no pager explains it', () => {
  // The page as served: 15 movements listed, 15 read; each side's count matches its rows.
  const whole = parsePjeDetail(TRF5, {}, new Anomalies());
  assert.deepEqual(whole.listas, { partes: { listados: 3, lidos: 3 }, movimentos: { listados: 15, lidos: 15 } });
  // The same page announcing 99 movements with no pager: rows it does not carry.
  const anomalies = new Anomalies();
  const announced = parsePjeDetail(TRF5.replace('>15 resultados encontrados<', '>99 resultados encontrados<'), {}, anomalies);
  assert.deepEqual(announced.listas!.movimentos, { listados: 99, lidos: 15, limitado: true });
  assert.deepEqual(anomalies.campos, ['lista.contagem']);
  // Polo ativo says 2 rows, none are there: no party read is the layout change it is, and the list is partial.
  const emptied = new Anomalies();
  const ativo = TRF5.indexOf('processoPartesPoloAtivoResumidoList:tb"');
  const body = TRF5.slice(ativo, TRF5.indexOf('</tbody>', ativo));
  const c = parsePjeDetail(TRF5.replace(body, 'processoPartesPoloAtivoResumidoList:tb">'), {}, emptied);
  assert.deepEqual(
    c.partes.map((p) => p.polo),
    ['PASSIVO'],
  );
  assert.equal(c.listas!.partes.limitado, true);
  assert.deepEqual([...emptied.campos].sort(), ['lista.contagem', 'partes.secao']);
});

test('PJe detail: a list with a pager shown (further pages not requested) is partial, without an anomaly', () => {
  const trf3 = fixture('set3/trf3_pje_detalhe_5001847-04.2022.4.03.6323.html');
  const anomalies = new Anomalies();
  const c = parsePjeDetail(trf3, {}, anomalies);
  assert.deepEqual(c.listas!.movimentos, { listados: 160, lidos: 15, limitado: true });
  assert.deepEqual(anomalies.campos, []);
});

test('PJe search: a footer counting more hits than its rows is never answered complete', () => {
  const oab = fixture('set2/tjma_pje_busca_oab.html');
  assert.deepEqual((({ total, limitado }) => ({ total, limitado }))(parsePjeSearch(oab) as { total: number | null; limitado: boolean }), {
    total: 4,
    limitado: false,
  });
  const anomalies = new Anomalies();
  const more = parsePjeSearch(oab.replace('>4 resultados encontrados<', '>9 resultados encontrados<'), anomalies);
  assert.ok(more.found && more.limitado && more.hits.length === 4);
  assert.deepEqual(anomalies.campos, ['lista.contagem']);
});

test('e-SAJ: a hit list whose counter exceeds its rows is partial; a parties section that yields no party is an anomaly', () => {
  const list = fixture('set3/tjce_esaj_cposg_lista_numero_duplicado.html');
  const whole = parseEsajSearch(list);
  assert.ok('total' in whole && whole.total === 2 && whole.limitado === false);
  const more = parseEsajSearch(list.replaceAll('2 Processos encontrados', '40 Processos encontrados'));
  assert.ok('total' in more && more.total === 40 && more.limitado === true);

  const espolio = fixture('set3/tjce_esaj_cpopg_detalhe_espolio_0090166-29.2006.8.06.0001.html');
  const ctx = { numeroCnj: '00901662920068060001', tribunal: 'TJCE', grau: 1 } as const;
  const noRows = espolio.replace(/<tr class="fundoClaro">[\s\S]*?<\/tr>/g, (row) => (row.includes('nomeParteEAdvogado') ? '' : row));
  const anomalies = new Anomalies();
  const page = parseEsajPage(noRows, ctx, anomalies);
  assert.equal(page.kind, 'case');
  assert.deepEqual(page.kind === 'case' && page.case.partes, []);
  assert.ok(anomalies.campos.includes('partes.secao'));
});

test('messages are classified by their words on every system; an unknown one is never "not found"', () => {
  const cases: [string, ReturnType<typeof classifyMessage>][] = [
    ['Sua pesquisa não encontrou nenhum processo disponível.', 'not_found'],
    ['Não existem informações disponíveis para os parâmetros informados.', 'not_found'],
    ['Nenhum processo encontrado.', 'not_found'],
    ['Sua consulta retornou muitos processos. Por favor, refine sua pesquisa.', 'refine'],
    ['Excesso de consultas simultâneas. Tente novamente mais tarde.', 'busy'],
    ['Ocorreu um erro ao processar a requisição.', 'error'],
    ['Serviço temporariamente indisponível.', 'error'],
    ['O processo informado tem tramitação exclusiva no sistema novo.', 'unknown'],
    ['   ', null],
  ];
  for (const [text, kind] of cases) assert.equal(classifyMessage(text), kind, text);
  assert.equal(quoted('CPF 123.456.789-01 não consta'), 'CPF 999.999.999-99 não consta');
  assert.equal(quoted('x'.repeat(300)).length, 160);
});
