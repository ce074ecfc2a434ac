/**
 * e-SAJ's message box decides, never the HTTP status (issue 44 item 3), through the consultations
 * connector against a stand-in for esaj.tjsp.jus.br on loopback that answers with the real captures of
 * Set 2 (and edited copies of them for the refusals e-SAJ prints in the same box): every answer is a 200.
 * - "não existem informações" → the case is unknown to the court (null);
 * - "refine your search" / "too many simultaneous queries" → that court failed in a search
 *   (`falharam`, with the reason), never "nothing found";
 * - a 2nd-degree number search answered with the "Selecione o processo" list → the exact case is
 *   opened, its incidents listed as related cases;
 * - a secret case → answered as secret (no parties, nothing invented), never malformed;
 * - a 1st-degree number search answered with a list of one hit (issue 52: "malformed" before) → that hit opened.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageText } from '../../http/body.ts';
import { readFileSync } from 'node:fs';
import { ConsultasConnector, enabledCourts } from '../connector.ts';
import { loopbackConsultaHttp, startLoopback } from '../pje/testing.ts';

const set2 = (name: string) => pageText(readFileSync(new URL(`../fixtures/set2/${name}`, import.meta.url)));
const NOT_FOUND = set2('tjsp_esaj_cpopg_nao_existe.html');
const SECRET = set2('tjsp_esaj_cpopg_segredo.html');
const LIST_2G = set2('tjsp_esaj_cposg_lista.html');
const DETAIL = set2('tjsp_esaj_cpopg_detalhe.html');
/** The message box of the real not-found answer, saying something else. */
const saying = (message: string) => NOT_FOUND.replace('Não existem informações disponíveis para os parâmetros informados.', message);
const REFINE = saying('A consulta retornou muitos processos. Por favor, refine sua pesquisa.');
const BUSY = saying('Excesso de consultas simultâneas. Tente novamente em alguns instantes.');

/**
 * A 1st-degree list with one hit (issue 52; TJSP's own is held back): the real `cposg5` list of TJCE
 * (set 3), its second hit dropped, moved to `cpopg` and a TJSP number. Its hits sit where the list's
 * div is lost to the HTML parser: only the links say what a hit is.
 */
const ONE_HIT_CNJ = '1000001-85.2025.8.26.0100';
const ONE_HIT = pageText(readFileSync(new URL('../fixtures/set3/tjce_esaj_cposg_lista_numero_duplicado.html', import.meta.url)))
  .replace(/<a href="[^"]*P0000AL4Q0000[^"]*" class="linkProcesso">[\s\S]*?<\/a>/, '')
  .replaceAll('2 Processos encontrados', '1 Processo encontrado')
  .replaceAll('/cposg5/', '/cpopg/')
  .split('0105299-54.2015.8.06.0112')
  .join(ONE_HIT_CNJ);
const SECRET_CNJ = '1000223-18.2026.8.26.0456';
const LIST_CNJ = '2327387-09.2025.8.26.0000';
const DETAIL_CNJ = '1054271-51.2024.8.26.0114';

let court: Awaited<ReturnType<typeof startLoopback>>;
let connector: ConsultasConnector;
let searchAnswer = NOT_FOUND;

before(async () => {
  court = await startLoopback(({ url }) => {
    const u = new URL(url, 'http://x');
    const ok = (body: string) => ({ body, headers: { 'set-cookie': 'JSESSIONID=x1' } });
    if (u.pathname.endsWith('/open.do')) return ok(NOT_FOUND.replace(/<td[^>]*id="mensagemRetorno"[\s\S]*?<\/td>/, ''));
    const number = u.searchParams.get('dadosConsulta.valorConsultaNuUnificado') ?? u.searchParams.get('dePesquisaNuUnificado');
    if (u.pathname === '/cpopg/search.do' && number === SECRET_CNJ)
      return { status: 302, headers: { location: '/cpopg/show.do?processo.codigo=CO0002BGN0000&processo.foro=456' }, body: '' };
    if (u.pathname === '/cpopg/search.do' && number === DETAIL_CNJ)
      return { status: 302, headers: { location: '/cpopg/show.do?processo.codigo=X1&processo.foro=114' }, body: '' };
    if (u.pathname === '/cpopg/search.do' && number === ONE_HIT_CNJ) return ok(ONE_HIT);
    if (u.pathname === '/cpopg/show.do' && u.searchParams.get('processo.codigo') === 'P00002W8H0000') return ok(DETAIL.split(DETAIL_CNJ).join(ONE_HIT_CNJ));
    if (u.pathname === '/cpopg/show.do') return ok(u.searchParams.get('processo.codigo') === 'X1' ? DETAIL : SECRET);
    if (u.pathname === '/cposg/search.do' && number === LIST_CNJ) return ok(LIST_2G);
    // The 2nd-degree page of the listed case: the real 1st-degree detail page moved to that number.
    if (u.pathname === '/cposg/show.do' && u.searchParams.get('processo.codigo') === 'RI0093NLD0000') return ok(DETAIL.split(DETAIL_CNJ).join(LIST_CNJ));
    if (u.pathname === '/cpopg/search.do' && u.searchParams.get('cbPesquisa') !== 'NUMPROC') return ok(searchAnswer);
    return ok(NOT_FOUND);
  });
  const courts = enabledCourts(['TJSP'], { TJSP: court.url }).map((c) => ({ ...c, urls: { 1: court.url, 2: court.url } }));
  connector = new ConsultasConnector({ courts, http: loopbackConsultaHttp(), sandbox: false });
});
after(async () => {
  await connector.close();
  await court.close();
});

test('"não existem informações" is the case unknown to the court', async () => {
  assert.equal(await connector.fetchDetails('40046883920268260223'), null);
});

test('a secret case is answered as secret: no parties, no movements, nothing invented', async () => {
  const d = (await connector.fetchDetails(SECRET_CNJ.replace(/\D/g, '')))!;
  assert.equal(d.consulta!.segredo, true);
  assert.deepEqual([d.partes, d.consulta!.movimentos, d.consulta!.classe, d.valorCausaCentavos], [[], [], null, null]);
});

test('a 2nd-degree number search answered with a list opens the exact case, its incidents as related cases', async () => {
  const d = (await connector.fetchDetails(LIST_CNJ.replace(/\D/g, '')))!;
  assert.equal(d.numeroCnj, LIST_CNJ.replace(/\D/g, ''));
  assert.equal(d.consulta!.grau, 2);
  assert.equal(d.partes.length, 2);
  assert.deepEqual(d.consulta!.incidentes, [{ numeroCnj: null, classe: '50000 - Embargos de Declaração Cível (Encerrado)', data: '2026-02-27' }]);
});

test('"refine your search" and "too many simultaneous queries" are that court failing the search, never "nothing found"', async () => {
  for (const [page, falha, why] of [
    [REFINE, 'unavailable', /refine the search/],
    [BUSY, 'rate_limited', /too many simultaneous queries/],
  ] as const) {
    searchAnswer = page;
    const report = await connector.searchCourts({ kind: 'documento', documento: '11144477735' });
    assert.deepEqual(report.responderam, []);
    assert.equal(report.falharam.length, 1);
    assert.equal(report.falharam[0]!.falha, falha);
    assert.match(report.falharam[0]!.mensagem, why);
  }
  searchAnswer = NOT_FOUND;
  const none = await connector.searchCourts({ kind: 'documento', documento: '11144477735' });
  assert.deepEqual(none.responderam, [{ tribunal: 'TJSP', numeros: [], encontrados: 0 }]);
});

test("a message the box has never shown before is the court's failure too, never a not-found", async () => {
  searchAnswer = saying('Serviço temporariamente indisponível.');
  const report = await connector.searchCourts({ kind: 'documento', documento: '11144477735' });
  assert.equal(report.falharam[0]?.falha, 'unavailable');
  searchAnswer = NOT_FOUND;
});

test("a 1st-degree number search answered with a list of one hit opens that hit's case (issue 52)", async () => {
  const d = await connector.fetchDetails(ONE_HIT_CNJ.replace(/\D/g, ''));
  assert.equal(d?.numeroCnj, ONE_HIT_CNJ.replace(/\D/g, ''));
  assert.equal(d?.consulta?.grau, 1);
  assert.ok(d!.partes.length > 0);
});
