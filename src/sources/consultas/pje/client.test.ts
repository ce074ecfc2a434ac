/**
 * PjeClassicClient against a loopback server replaying the real captures: the JSF flow (listView →
 * A4J search POST with the page's own fields → detail page) for TJMA, TJCE (Latin-1 bytes) and TJRJ,
 * the explicit not-found, and each challenge (TJBA's captcha refusal, TJPB's Cloudflare page, a login
 * redirect) as the right failure, never data and never "not found".
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SourceError } from '../../../platform/ports/source-error.ts';
import { PjeClassicClient } from './client.ts';
import type { ConsultaCase } from '../record.ts';
import { parsePjeDetail } from './parse.ts';
import { anomaliesOf } from '../anomalies.ts';
import { pageText } from '../../http/body.ts';
import { loopbackConsultaHttp, startLoopback, type RecordedRequest, type Reply } from './testing.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const LIST = fixture('pje-tjma-listView.html');
const SESSION = 'pdim1ZavgXSKfzdtlFkzu7wh4DKlL6VpR4vY8YKE.pje-web-ss-17';

interface Court {
  ctx: string;
  cnj: string;
  masked: string;
  search: string;
  detail: string;
}
const TJMA: Court = {
  ctx: '/pje',
  cnj: '08013415020258100114',
  masked: '0801341-50.2025.8.10.0114',
  search: 'pje-tjma-post_search_ok.html',
  detail: 'pje-tjma-detalhe_ok.html',
};
const TJCE: Court = {
  ctx: '/pje1grau',
  cnj: '30007399420258060100',
  masked: '3000739-94.2025.8.06.0100',
  search: 'pje-tjce-search-3000739-94.2025.8.06.0100.html',
  detail: 'pje-tjce-detalhe-3000739-94.2025.8.06.0100.html',
};
const TJRJ: Court = {
  ctx: '/pje',
  cnj: '09371657720258190001',
  masked: '0937165-77.2025.8.19.0001',
  search: 'pje-tjrj-search-0937165-77.2025.8.19.0001.html',
  detail: 'pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html',
};

/** The court's three pages; the listView is TJMA's (the only one captured), moved to the court's context path. */
function replay(court: Court, override: (r: RecordedRequest) => Reply | undefined = () => undefined) {
  const list = court.ctx === '/pje' ? LIST : Buffer.from(LIST.toString('utf8').replaceAll('/pje/', `${court.ctx}/`));
  return (r: RecordedRequest): Reply => {
    const o = override(r);
    if (o) return o;
    if (r.method === 'GET' && r.url === `${court.ctx}/ConsultaPublica/listView.seam`)
      return { headers: { 'set-cookie': [`JSESSIONID=${SESSION}; Path=${court.ctx}; HttpOnly`] }, body: list };
    if (r.method === 'POST' && r.url === `${court.ctx}/ConsultaPublica/listView.seam;jsessionid=${SESSION}`) {
      const asked = new URLSearchParams(r.body).get('fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso');
      return { body: fixture(asked === court.masked ? court.search : 'pje-tjma-post_search_empty.html') };
    }
    if (r.method === 'GET' && r.url.startsWith(`${court.ctx}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=`))
      return { body: fixture(court.detail) };
    return { status: 404, body: 'not here' };
  };
}

/** The case the detail page shows; its documents grid (issue 53) is read apart (corpus.test.ts, test/court-documents.test.ts). */
function pageCase(found: ConsultaCase | null): ConsultaCase | null {
  if (!found) return found;
  const { documentos: _documentos, ...rest } = found;
  if (!rest.listas) return rest;
  const { documentos: _grid, ...listas } = rest.listas;
  return { ...rest, listas };
}

const servers: { close(): Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function client(court: Court, override?: (r: RecordedRequest) => Reply | undefined) {
  const server = await startLoopback(replay(court, override));
  servers.push(server);
  return {
    server,
    client: new PjeClassicClient({ baseUrl: `${server.url}${court.ctx}`, http: loopbackConsultaHttp(), source: 'TJXX PJe', label: 'TJXX PJe' }),
  };
}

test("TJMA: listView, the A4J search POST the page's script sends (session cookie, dynamic ids, ViewState), the detail page, parsed", async () => {
  const { server, client: c } = await client(TJMA);
  const found = await c.fetchCase(TJMA.cnj);
  assert.deepEqual(pageCase(found), parsePjeDetail(pageText(fixture(TJMA.detail))));
  assert.equal(found?.partes.length, 2);
  assert.deepEqual(
    server.requests.map((r) => `${r.method} ${r.url.replace(/\?ca=.*/, '?ca=…')}`),
    [
      'GET /pje/ConsultaPublica/listView.seam',
      `POST /pje/ConsultaPublica/listView.seam;jsessionid=${SESSION}`,
      'GET /pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=…',
    ],
  );
  const post = server.requests[1];
  assert.equal(post.headers.cookie, `JSESSIONID=${SESSION}`);
  assert.equal(server.requests[2].headers.cookie, `JSESSIONID=${SESSION}`);
  assert.equal(server.requests[2].url, '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=1f6dbfb309a20338ff463a149517791e8d45f1f2ae59ccb4');
  const sent = [...new URLSearchParams(post.body)];
  assert.deepEqual(sent, [
    ['AJAXREQUEST', '_viewRoot'],
    ['fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso', TJMA.masked],
    ['fPP:j_id168:processoReferenciaInput', ''],
    ['fPP:dnp:nomeParte', ''],
    ['fPP:j_id186:nomeAdv', ''],
    ['fPP:j_id195:classeJudicial', ''],
    ['fPP:j_id195:sgbClasseJudicial_selection', ''],
    ['fPP:dpDec:documentoParte', ''],
    ['fPP:Decoration:numeroOAB', ''],
    ['fPP:Decoration:j_id231', ''],
    ['fPP:Decoration:estadoComboOAB', 'org.jboss.seam.ui.NoSelectionConverter.noSelectionValue'],
    ['fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputDate', ''],
    ['fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputCurrentDate', '05/2026'],
    ['fPP:dataAutuacaoDecoration:dataAutuacaoFimInputDate', ''],
    ['fPP:dataAutuacaoDecoration:dataAutuacaoFimInputCurrentDate', '05/2026'],
    ['fPP', 'fPP'],
    ['autoScroll', ''],
    ['fPP:j_idcl', ''],
    ['fPP:_link_hidden_', ''],
    ['javax.faces.ViewState', 'j_id1'],
    ['fPP:j_id252', 'fPP:j_id252'],
    ['AJAX:EVENTS_COUNT', '1'],
  ]);
});

test("TJCE (context /pje1grau, detail in Latin-1 bytes) and TJRJ: the same flow reads each court's case", async () => {
  for (const court of [TJCE, TJRJ]) {
    const { client: c } = await client(court);
    const found = await c.fetchCase(court.cnj);
    assert.equal(found?.numeroCnj, court.cnj);
    assert.deepEqual(pageCase(found), parsePjeDetail(pageText(fixture(court.detail))));
  }
});

test('a number PJe does not know: the empty answer is null, and no detail page is asked', async () => {
  const { server, client: c } = await client(TJMA);
  assert.equal(await c.fetchCase('00000010120258100114'), null);
  assert.equal(server.requests.length, 2);
});

const failure = (kind: string) => (e: unknown) => e instanceof SourceError && e.failure === kind && e.source === 'TJXX PJe';

test('TJBA\'s captcha refusal to the search POST is a captcha failure, never "not found"', async () => {
  const { server, client: c } = await client(TJMA, (r) => (r.method === 'POST' ? { body: fixture('block-tjba-pje-search-captcha.html') } : undefined));
  await assert.rejects(c.fetchCase(TJMA.cnj), failure('captcha'));
  assert.equal(server.requests.length, 2);
});

test('a search answered with a message is classified by its words: not found is null, try later rate_limited, unknown quoted and counted', async () => {
  // TJBA's answer shape (the message panel over an empty table), with the courts' other sentences in its panel.
  const saying = (message: string) => (r: RecordedRequest) =>
    r.method === 'POST'
      ? { body: fixture('block-tjba-pje-search-captcha.html').toString('utf8').replace('A verificação de captcha não está correta.', message) }
      : undefined;
  const notFound = await client(TJMA, saying('Sua pesquisa não encontrou nenhum processo disponível.'));
  assert.equal(await notFound.client.fetchCase(TJMA.cnj), null);
  assert.equal(notFound.server.requests.length, 2, 'no detail page asked');
  const busy = await client(TJMA, saying('Muitas requisições. Tente novamente mais tarde.'));
  await assert.rejects(busy.client.fetchCase(TJMA.cnj), failure('rate_limited'));
  const unknown = await client(TJMA, saying('Consulta 12345 não pôde ser concluída pelo módulo XYZ.'));
  await assert.rejects(unknown.client.fetchCase(TJMA.cnj), (e: unknown) => {
    assert.ok(failure('unavailable')(e));
    // Quoted for the operator, digits shaped (no number of anyone), and counted as a layout anomaly.
    assert.match((e as Error).message, /"Consulta 99999 não pôde ser concluída pelo módulo XYZ\."/);
    assert.deepEqual(anomaliesOf(e), ['mensagem.desconhecida']);
    return true;
  });
});

test("TJPB's Cloudflare page instead of the form is anti_bot, whatever its status", async () => {
  for (const status of [403, 503, 200]) {
    const { server, client: c } = await client(TJMA, () => ({ status, body: fixture('block-tjpb-pje-cloudflare-challenge.html') }));
    await assert.rejects(c.fetchCase(TJMA.cnj), failure('anti_bot'));
    assert.equal(server.requests.length, 1);
  }
});

test('other refusals: a login redirect is login, a bare 403 anti_bot, 429 rate_limited with its wait, 5xx unavailable', async () => {
  const cases: [Reply, string, number | undefined][] = [
    [{ status: 302, headers: { location: '/pje/login.seam' }, body: '' }, 'login', undefined],
    [{ status: 403, body: '<html><body>Forbidden</body></html>' }, 'anti_bot', undefined],
    [{ status: 429, headers: { 'retry-after': '7' }, body: '' }, 'rate_limited', 7000],
    [{ status: 502, body: '<html><body>Bad Gateway</body></html>' }, 'unavailable', undefined],
  ];
  for (const [reply, kind, wait] of cases) {
    const { client: c } = await client(TJMA, () => reply);
    await assert.rejects(c.fetchCase(TJMA.cnj), (e: unknown) => failure(kind)(e) && (e as SourceError).retryAfterMs === wait);
  }
});

test('a cut-short detail page, or one of another case, is malformed: never an empty case', async () => {
  const half = fixture(TJMA.detail).subarray(0, 50_000);
  const { client: c } = await client(TJMA, (r) => (r.url.includes('?ca=') ? { body: half } : undefined));
  await assert.rejects(c.fetchCase(TJMA.cnj), failure('malformed'));
  const { client: other } = await client(TJMA, (r) => (r.url.includes('?ca=') ? { body: fixture(TJRJ.detail) } : undefined));
  await assert.rejects(other.fetchCase(TJMA.cnj), failure('malformed'));
});

test('the session cookie set on a redirect is kept and the redirect followed', async () => {
  let redirected = false;
  const { server, client: c } = await client(TJMA, (r) => {
    if (r.method === 'GET' && r.url === '/pje/ConsultaPublica/listView.seam' && !redirected) {
      redirected = true;
      return { status: 302, headers: { location: '/pje/ConsultaPublica/listView.seam', 'set-cookie': 'BALANCEID=b1; Path=/' }, body: '' };
    }
    return undefined;
  });
  assert.equal((await c.fetchCase(TJMA.cnj))?.numeroCnj, TJMA.cnj);
  assert.match(String(server.requests[2].headers.cookie), /BALANCEID=b1; JSESSIONID=/);
});

test('a search answer capped by the court (TJRO: "somente os 30 primeiros serão exibidos") says so: its 30 rows, limitado, never a total', async () => {
  const capped = fixture('set2/tjro_pje_busca_nomeparte.html');
  const court = await startLoopback((r) => ({ body: r.method === 'GET' ? LIST : capped, headers: { 'set-cookie': `JSESSIONID=${SESSION}; Path=/pje` } }));
  try {
    const client = new PjeClassicClient({
      baseUrl: `${court.url}/pje`,
      http: loopbackConsultaHttp(),
      source: 'consulta-tjro',
      label: 'PJe consulta pública TJRO',
    });
    const hits = await client.search({ kind: 'oab', oab: { uf: 'RO', numero: '1234' } }, 10);
    assert.equal(hits?.numeros.length, 10);
    assert.equal(hits?.total, 30);
    assert.equal(hits?.limitado, true);
  } finally {
    await court.close();
  }
});
