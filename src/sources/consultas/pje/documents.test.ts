/**
 * The documents grid read whole (issue 53): TRF3's real detail page lists 30 documents, 15 a page,
 * paged by its slider. With `documents`, the client posts the slider's A4J request for page 2 on the
 * session that read the page (its cookie, the page's ViewState, the slider's own field) and reads the
 * rows the answer re-renders; without it (a cover lookup), the first page only, said to be partial.
 * A page that fails after the first keeps what was read, partial. No real capture of a page-2 answer
 * exists: the stand-in answers the same grid with other ids.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageText } from '../../http/body.ts';
import { PjeClassicClient } from './client.ts';
import { loopbackConsultaHttp, startLoopback, type RecordedRequest, type Reply } from './testing.ts';

const DETAIL = pageText(readFileSync(new URL('../fixtures/set3/trf3_pje_detalhe_5001847-04.2022.4.03.6323.html', import.meta.url)));
const CNJ = '50018470420224036323';
/** Page 2 as the stand-in answers it: the grid again, each row another document. */
const PAGE2 = DETAIL.replace(/idProcessoDoc=(\d+)/g, 'idProcessoDoc=9$1');

const servers: { close(): Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function read(documents: boolean, page2: (r: RecordedRequest) => Reply) {
  const server = await startLoopback((r) => {
    if (r.method === 'GET') return { headers: { 'set-cookie': 'JSESSIONID=trf3; Path=/pje' }, body: DETAIL };
    return page2(r);
  });
  servers.push(server);
  const http = loopbackConsultaHttp();
  const client = new PjeClassicClient({ baseUrl: `${server.url}/pje`, http, source: 'consulta-trf3', label: 'PJe TRF3' });
  const url = `${server.url}/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=abc`;
  const found = await client.fetchCase(CNJ, undefined, { url, session: http.session('consulta-trf3', 'PJe TRF3') }, { documents });
  return { found: found!, server };
}

test("a refresh reads every page of the grid: the slider's A4J request on the page's session, 30 of 30 documents", async () => {
  const { found, server } = await read(true, () => ({ body: PAGE2 }));
  assert.equal(found.documentos?.length, 30);
  assert.deepEqual(found.listas?.documentos, { listados: 30, lidos: 30 });
  assert.equal(found.documentos?.[15]?.id, '9330660421');
  const post = server.requests.find((r) => r.method === 'POST')!;
  assert.equal(post.url, '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam');
  assert.equal(post.headers.cookie, 'JSESSIONID=trf3');
  const sent = new URLSearchParams(post.body);
  assert.equal(sent.get('j_id149:j_id652:j_id653'), '2');
  assert.equal(sent.get('javax.faces.ViewState'), 'j_id4');
  assert.equal(sent.get('AJAXREQUEST'), 'j_id149:j_id568');
});

test('a cover lookup reads the first page only and says the list is partial; a page that fails keeps what was read, partial', async () => {
  const first = await read(false, () => ({ body: PAGE2 }));
  assert.equal(first.found.documentos?.length, 15);
  assert.deepEqual(first.found.listas?.documentos, { listados: 30, lidos: 15, parcial: true });
  assert.equal(first.server.requests.length, 1, 'no page asked past the first');
  const failing = await read(true, () => ({ status: 500, body: 'erro' }));
  assert.equal(failing.found.documentos?.length, 15);
  assert.deepEqual(failing.found.listas?.documentos, { listados: 30, lidos: 15, parcial: true });
});
