/**
 * Public documents from a PJe court's own page (issue 53), through the HTTP surface and the real PJe
 * connector: a stand-in for TJMA's consultation on loopback serves the real pages (listView, search
 * answer, the detail page with its documents grid, the real document viewers of fixtures/documents/,
 * each printing the id of the grid row it answers for). A refresh lists the grid's six documents with
 * titles, types, dates and `fonte`; a download reads the viewer on the session that read the page and
 * serves the court's header, body and signer as text, HTML or PDF (the court's own where "Gerar PDF"
 * answers one, else Tramita's, saying which); a second download asks no court; a refused token has the
 * page read again once; a login is never passed (422, uncharged, and the list says so); a stored file
 * downloads as it is. The store is bounded, least recently used first.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pageText } from '../src/sources/http/body.ts';
import { createHarness, json } from './harness.ts';
import { CourtDocumentStore } from '../src/capabilities/processes/document-files-store.ts';
import { refreshStoreGauges } from '../src/capabilities/operations/snapshot.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';
import { caseFeed, monitorCase } from './case-feed.ts';

const fixture = (name: string) => pageText(readFileSync(new URL(`../src/sources/consultas/fixtures/${name}`, import.meta.url)));
const NUMBER = '0801341-50.2025.8.10.0114';
const DIGITS = '08013415020258100114';
const SESSION = 'pdim1ZavgXSKfzdtlFkzu7wh4DKlL6VpR4vY8YKE.pje-web-ss-17';
const LIST = fixture('pje-tjma-listView.html');
const SEARCH = fixture('pje-tjma-post_search_ok.html');
let DETAIL = fixture('pje-tjma-detalhe_ok.html');
/** A real viewer page answering for grid row `id` (the capture's own "ID do documento" replaced by it). */
const viewer = (name: string, printed: string, id: string) => fixture(`documents/${name}`).replace(`<b>${printed}</b>`, `<b>${id}</b>`);
const VIEWERS: Record<string, string> = {
  '177273124': viewer('tjma_pje1g_documento_sentenca_extincao.html', '137796582', '177273124'),
  '172729756': viewer('tjma_pje1g_documento_sentenca_homologacao.html', '39366568', '172729756'),
  '170742187': viewer('tjma_pje1g_documento_sentenca_usucapiao_bem_publico.html', '157852766', '170742187'),
};
const COURT_PDF = Buffer.from("%PDF-1.4\n% the court's own PDF of 177273124\n%%EOF\n");
const STORED_FILE = Buffer.from('%PDF-1.7\n% GuiaMA1.63666.pdf as the court stores it\n%%EOF\n');

const asked: { method: string; path: string; query: URLSearchParams }[] = [];
/** Times the refused-token document was asked: the first answer is the error page of an expired token. */
let refusedOnce = 0;
const court = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  asked.push({ method: req.method!, path: url.pathname, query: url.searchParams });
  const html = (body: string, headers: Record<string, string> = {}) => res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8', ...headers }).end(body);
  const hasSession = (req.headers.cookie ?? '').includes(`JSESSIONID=${SESSION}`);
  if (req.method === 'GET' && url.pathname === '/pje/ConsultaPublica/listView.seam')
    return html(LIST, { 'set-cookie': `JSESSIONID=${SESSION}; Path=/pje; HttpOnly` });
  if (req.method === 'POST' && url.pathname.startsWith('/pje/ConsultaPublica/listView.seam')) return html(SEARCH);
  if (url.pathname === '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam') {
    if (url.searchParams.has('idBin')) return res.writeHead(302, { location: '/pje/download.seam?cid=9' }).end();
    return html(DETAIL);
  }
  if (url.pathname === '/pje/download.seam')
    return res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'filename="x"' }).end(STORED_FILE);
  if (url.pathname === '/pje/errorUnexpected.seam') return html('<html><body><h1>Erro inesperado</h1></body></html>');
  if (url.pathname === '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/documentoSemLoginHTML.seam') {
    // A viewer token outside the session that rendered the page: PJe sends it to its login.
    if (!hasSession) return res.writeHead(302, { location: '/pje/login.seam' }).end();
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('j_id40:downloadPDF') === 'j_id40:downloadPDF' && form.get('idProcDocBin') === '127984049')
          return res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' }).end(COURT_PDF);
        res.writeHead(302, { location: '/pje/errorUnexpected.seam?cid=4' }).end();
      });
      return;
    }
    const id = url.searchParams.get('idProcessoDoc') ?? '';
    if (id === '154828848') return res.writeHead(302, { location: '/pje/login.seam?cid=2' }).end();
    if (id === '170742187' && refusedOnce++ === 0) return res.writeHead(302, { location: '/pje/errorUnexpected.seam?cid=3' }).end();
    const page = VIEWERS[id];
    return page ? html(page) : html('<html><body>Documento não encontrado</body></html>');
  }
  res.writeHead(404).end();
});
await new Promise<void>((r) => court.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJMA',
    TRAMITA_CONSULTA_TJMA_URL: `http://127.0.0.1:${(court.address() as AddressInfo).port}/pje`,
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,download=100000/60s,async=100000/60s',
    TRAMITA_SUMMARY_PROVIDER: 'extrativo',
    // The feed shows an event at once on both engines (PostgreSQL's settling window is for concurrent writers).
    TRAMITA_FEED_SETTLE_MS: '0',
  },
});
after(async () => {
  await h.close();
  court.close();
});

const acc = await h.createAccount({ credits: 10_000 });
const download = (id: string, formato?: string) =>
  h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/documentos/${id}/download${formato ? `?formato=${formato}` : ''}`, headers: acc.headers });
const viewerAsks = () => asked.filter((a) => a.path.endsWith('documentoSemLoginHTML.seam')).length;
const detailAsks = () => asked.filter((a) => a.path.endsWith('DetalheProcessoConsultaPublica/listView.seam') && a.query.has('ca')).length;

test("a refresh lists the grid's documents: titles, types, dates, where each is, its fonte", async () => {
  const before = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/documentos-publicos`, headers: acc.headers });
  assert.equal(json(before).error.code, 'REFRESH_REQUIRED');
  const refresh = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${NUMBER}/solicitar-atualizacao`, headers: acc.headers, payload: {} });
  assert.equal(refresh.statusCode, 200, refresh.body);
  await h.runJobs();
  const status = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/status-atualizacao`, headers: acc.headers })).data;
  assert.equal(status.status, 'CONCLUIDA', JSON.stringify(status.erro));
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/documentos-publicos`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(
    body.data.documentos.map((d: Record<string, unknown>) => [d.id, d.titulo, d.tipo, d.data, d.origem, d.fonte, d.publico]),
    [
      ['180202998', 'Comprovante1.63666', 'Custas', '2026-05-19 13:36:05', 'arquivo', 'consulta-tjma', true],
      ['180202999', 'GuiaMA1.63666', 'Custas', '2026-05-19 13:36:05', 'arquivo', 'consulta-tjma', true],
      ['177273124', 'Sentença', 'Sentença', '2026-04-23 14:59:05', 'visualizador', 'consulta-tjma', true],
      ['172729756', 'Sentença', 'Sentença', '2026-02-21 12:25:34', 'visualizador', 'consulta-tjma', true],
      ['170742187', 'Ata de audiência no CEJUSC', 'Ata de audiência no CEJUSC', '2026-01-28 09:49:37', 'visualizador', 'consulta-tjma', true],
      ['154828848', 'Decisão', 'Decisão', '2025-07-17 17:10:45', 'visualizador', 'consulta-tjma', true],
    ],
  );
  assert.equal(body.data.documentos[1].extensaoArquivo, 'pdf');
  assert.equal(body.data.documentos[1].tamanhoBytes, 90993, 'the size the row prints (88,86 Kb)');
  assert.deepEqual(body.meta.documentosTribunal, { listados: 6, lidos: 6, parcial: false });
  assert.equal(viewerAsks(), 0, 'a refresh opens no document');
});

test("a download reads the viewer on the page's session: the court's header, body and signer as text, then HTML from the store", async () => {
  const viewersBefore = viewerAsks();
  const res = await download('177273124', 'texto');
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.headers['content-type'] as string, /^text\/plain/);
  const lines = res.body.split('\n');
  assert.deepEqual(lines.slice(0, 3), ['PODER JUDICIÁRIO', 'TRIBUNAL DE JUSTIÇA DO ESTADO DO MARANHÃO', 'COMARCA DE SANTA QUITÉRIA']);
  assert.ok(lines.includes('Juiz de Direito Titular da Comarca de Santa Quitéria/MA'));
  assert.ok(lines.includes('Assinado eletronicamente por: CRISTIANO REGIS CESAR DA SILVA em 2025-01-14 10:16:20'), res.body);
  assert.ok(lines.includes('ID do documento: 177273124'));
  assert.doesNotMatch(res.body, /Gerar PDF|Imprimir|function|Normal 0 false/);
  assert.equal(decodeURIComponent(res.headers['x-documento-assinante'] as string), 'CRISTIANO REGIS CESAR DA SILVA');
  assert.equal(res.headers['x-documento-assinado-em'], '2025-01-14T10:16:20.000-03:00');
  const price = res.headers['x-credits-charged'];
  assert.ok(Number(price) > 0, 'charged');
  assert.equal(viewerAsks() - viewersBefore, 2, 'the viewer and its Gerar-PDF form, once each');
  const viewer = asked.findLast((a) => a.method === 'GET' && a.path.endsWith('documentoSemLoginHTML.seam'))!;
  assert.equal(viewer.query.get('idProcessoDoc'), '177273124');

  const again = await download('177273124', 'html');
  assert.equal(again.statusCode, 200);
  assert.match(again.body, /^<!DOCTYPE html>/);
  assert.match(again.body, /Vistos, etc\.|SENTENÇA|PODER JUDICIÁRIO/);
  assert.match(again.body, /Assinado eletronicamente por: CRISTIANO REGIS CESAR DA SILVA/);
  assert.doesNotMatch(again.body, /<script|<form/i);
  assert.equal(viewerAsks() - viewersBefore, 2, 'a second download asks no court');
  assert.equal(again.headers['x-credits-charged'], price, 'each download is one charge');
});

test("PDF: the court's own where Gerar PDF answers one; else Tramita's, saying which", async () => {
  const own = await download('177273124');
  assert.equal(own.statusCode, 200);
  assert.equal(own.headers['content-type'], 'application/pdf');
  assert.equal(own.headers['x-documento-pdf'], 'tribunal');
  assert.deepEqual(own.rawPayload, COURT_PDF);
  const rendered = await download('172729756', 'pdf');
  assert.equal(rendered.statusCode, 200, rendered.body);
  assert.equal(rendered.headers['x-documento-pdf'], 'tramita');
  assert.equal(rendered.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
});

test('a token the court refuses has the page read again, once; a file the court stores downloads as it is', async () => {
  const details = detailAsks();
  const res = await download('170742187', 'texto');
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /^ESTADO DO MARANHÃO - PODER JUDICIÁRIO\n5ª VARA CÍVEL DA COMARCA DE IMPERATRIZ/);
  assert.match(res.body, /Assinado eletronicamente por: FREDERICO FEITOSA DE OLIVEIRA/);
  assert.equal(detailAsks() - details, 2, 'the page read twice: before the refused token and once after');
  const file = await download('180202999', 'texto');
  assert.equal(file.statusCode, 200);
  assert.equal(file.headers['content-type'], 'application/pdf');
  assert.deepEqual(file.rawPayload, STORED_FILE);
});

test('a document behind a login is never read: 422 DOCUMENT_NOT_PUBLIC, uncharged, and the list says so', async () => {
  const balance = json(await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: acc.headers })).data;
  const res = await download('154828848', 'texto');
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(json(res).error.code, 'DOCUMENT_NOT_PUBLIC');
  assert.deepEqual(json(await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: acc.headers })).data, balance);
  assert.ok(!asked.some((a) => a.path === '/pje/login.seam'), 'the login page is never asked');
  const list = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/documentos-publicos`, headers: acc.headers })).data.documentos;
  const locked = list.find((d: { id: string }) => d.id === '154828848');
  assert.equal(locked.publico, false);
  assert.match(locked.restricao, /login/);
  assert.equal((await download('154828848')).statusCode, 422);
  assert.ok(!h.logs.some((l) => l.includes('CRISTIANO REGIS') || l.includes('Santa Quitéria')), 'no document content in the logs');
});

test('the store is bounded: past its size the least recently used are evicted; the metric shows its size', async () => {
  await refreshStoreGauges(h.services);
  const bytes = (await telemetry.registry.getSingleMetric('tramita_documentos_armazenados_bytes')!.get()).values[0]!.value;
  assert.ok(bytes > 0, 'the documents read are counted');
  const small = new CourtDocumentStore(h.services.db, h.services.clock, bytes + 100);
  await small.put('00000000000000000001', 'x1', { formato: 'arquivo', mimeType: 'application/pdf', nome: null, body: Buffer.alloc(60) });
  assert.notEqual(await small.get(DIGITS, '180202999'), null, 'within the bound: nothing evicted');
  await small.put('00000000000000000001', 'x2', { formato: 'arquivo', mimeType: 'application/pdf', nome: null, body: Buffer.alloc(60) });
  assert.equal(await small.get(DIGITS, '177273124'), null, 'the least recently used went first');
  assert.notEqual(await small.get('00000000000000000001', 'x2'), null);
});

test('the summary reads the decisions Tramita holds: the newest one, who signed it, its opening lines', async () => {
  const asks = asked.length;
  const res = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${DIGITS}/resumo-ia/solicitar-atualizacao`, headers: acc.headers, payload: {} });
  assert.ok([200, 201, 202].includes(res.statusCode), res.body);
  await h.runJobs();
  const summary = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${DIGITS}/resumo-ia`, headers: acc.headers });
  assert.equal(summary.statusCode, 200, summary.body);
  const text: string = json(summary).data.conteudo;
  // The newest decision still held: 23/04's was evicted by the test above.
  assert.match(text, /## Última decisão\n\n21\/02\/2026 — Sentença, assinada por MAZURKIEVICZ SARAIVA DE SOUSA CRUZ:\n\n> SENTENÇA Vistos, etc\. HOMOLOGO/);
  assert.equal(asked.length, asks, 'no court asked for a summary');
});

test('a new public document of a monitored case is announced to its monitors: atualizacao_processo_concluida, motivo DOCUMENTOS', async () => {
  const follower = await h.createAccount({ credits: 10_000 });
  await monitorCase(h, follower, NUMBER, 'DIARIA');
  await h.runJobs();
  assert.deepEqual(await caseFeed(h, follower, DIGITS, 'atualizacao_processo_concluida').then((e) => e.filter((x) => x.data.motivo === 'DOCUMENTOS')), []);
  // The court joins a new document (the grid's last row now another one).
  DETAIL = DETAIL.replaceAll('idProcessoDoc=154828848', 'idProcessoDoc=199999999').replace("'154828848popUpDocumento'", "'199999999popUpDocumento'");
  const refresh = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${NUMBER}/solicitar-atualizacao`, headers: acc.headers, payload: {} });
  assert.equal(refresh.statusCode, 200, refresh.body);
  await h.runJobs();
  const news = (await caseFeed(h, follower, DIGITS, 'atualizacao_processo_concluida')).filter((e) => e.data.motivo === 'DOCUMENTOS');
  assert.equal(news.length, 1);
  assert.deepEqual(
    news[0]!.data.documentos.map((d: { id: string; tipo: string; fonte: string; origem: string }) => [d.id, d.tipo, d.fonte, d.origem]),
    [['199999999', 'Decisão', 'consulta-tjma', 'visualizador']],
  );
  assert.match(news[0]!.source, /(^|:)consulta-tjma$/);
});
