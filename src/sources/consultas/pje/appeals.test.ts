/**
 * PJe's 2nd degree where the court opens one of its own (issue 52 item 3: TJMA's `pje2g`): when DataJud
 * lists a G2 instance, the connector runs the same JSF flow on the 2nd degree's deployment under the
 * origin number, and merges its parties, órgão and movements by instance. A loopback stand-in replays the
 * real TJMA captures of both degrees (listView, the A4J search answers, the detail pages); its only edit:
 * the 2nd degree's pages carry their own appeal number, replaced by the origin number asked.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConsultasConnector, enabledCourts } from '../connector.ts';
import { loopbackConsultaHttp, startLoopback, type RecordedRequest, type Reply } from './testing.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
const CNJ = '08013415020258100114';
const MASKED = '0801341-50.2025.8.10.0114';
const APPEAL = '0836521-81.2025.8.10.0000';
const SESSION = 'pdim1ZavgXSKfzdtlFkzu7wh4DKlL6VpR4vY8YKE.pje-web-ss-17';
const LIST = fixture('pje-tjma-listView.html');

/** A degree's deployment at `ctx`: the form, the search answering `search` for the number asked, the detail page. */
function degree(ctx: string, search: string, detail: string) {
  return (r: RecordedRequest): Reply | undefined => {
    if (!r.url.startsWith(`${ctx}/`)) return undefined;
    if (r.method === 'GET' && r.url === `${ctx}/ConsultaPublica/listView.seam`)
      return { headers: { 'set-cookie': [`JSESSIONID=${SESSION}; Path=${ctx}; HttpOnly`] }, body: LIST.replaceAll('/pje/', `${ctx}/`) };
    if (r.method === 'POST' && r.url === `${ctx}/ConsultaPublica/listView.seam;jsessionid=${SESSION}`) {
      const asked = new URLSearchParams(r.body).get('fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso');
      return { body: asked === MASKED ? search : fixture('pje-tjma-post_search_empty.html') };
    }
    if (r.method === 'GET' && r.url.startsWith(`${ctx}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=`)) return { body: detail };
    return { status: 404, body: 'not here' };
  };
}

const first = degree('/pje', fixture('pje-tjma-post_search_ok.html'), fixture('pje-tjma-detalhe_ok.html'));
const second = degree(
  '/pje2g',
  fixture('set2/tjma_pje2g_post_search_ok_2g.html').replaceAll(APPEAL, MASKED),
  fixture('pje-tjma-detalhe_ok_2g.html').replaceAll(APPEAL, MASKED),
);
const server = await startLoopback((r) => first(r) ?? second(r) ?? { status: 404, body: 'not here' });
const [tjma] = enabledCourts(['TJMA'], {});
const connector = new ConsultasConnector({
  courts: [{ court: tjma!.court, urls: { 1: `${server.url}/pje`, 2: `${server.url}/pje2g` } }],
  http: loopbackConsultaHttp(),
  sandbox: false,
});
after(async () => {
  await connector.close();
  await server.close();
});

test('DataJud lists G1 and G2: both deployments read, the 2nd degree’s parties labelled G2, its cover and movements beside the 1st degree’s', async () => {
  const d = (await connector.fetchDetails(CNJ, undefined, { instancias: ['G1', 'G2'] }))!;
  const g1 = d.partes.filter((p) => p.grau === 'G1');
  const g2 = d.partes.filter((p) => p.grau === 'G2');
  assert.ok(g1.length > 0 && g2.length > 0, JSON.stringify(d.partes.map((p) => [p.grau, p.nome])));
  assert.equal(g1.length + g2.length, d.partes.length);
  assert.deepEqual(
    g1.map((p) => [p.polo, p.tipo, p.nome]),
    [
      ['ATIVO', 'AUTOR', 'NATANAEL FICTICIO DA AMOSTRA'],
      ['PASSIVO', 'REU', 'BANCO DO BRASIL SA'],
    ],
  );
  assert.deepEqual(
    g2.map((p) => [p.polo, p.tipo]),
    [...Array(5).fill(['ATIVO', 'AGRAVANTE']), ['PASSIVO', 'AGRAVADO']],
  );
  assert.equal(g2.at(-1)!.nome, 'ESTADO DO MARANHAO');
  assert.equal(d.consulta!.grau, 1);
  const [appeal, ...more] = d.consulta!.segundoGrau!;
  assert.equal(more.length, 0);
  assert.equal(appeal!.grau, 2);
  assert.equal(appeal!.instancia, 'G2');
  assert.equal(appeal!.classe, 'AGRAVO DE INSTRUMENTO');
  assert.equal(appeal!.orgao, 'Gabinete Des. Tyrone José Silva (CDPU)');
  assert.equal(appeal!.movimentos.length, 15);
  assert.ok(appeal!.movimentos.length > 0 && d.consulta!.movimentos.length > 0);
  assert.ok(
    server.requests.some((r) => r.url.startsWith('/pje2g/ConsultaPublica/DetalheProcessoConsultaPublica/')),
    'the 2nd degree’s detail page read',
  );
});

test('DataJud lists a G1 only: the 2nd degree’s deployment is not asked', async () => {
  server.requests.length = 0;
  const d = (await connector.fetchDetails(CNJ, undefined, { instancias: ['G1'] }))!;
  assert.equal(d.consulta!.segundoGrau, undefined);
  assert.deepEqual(
    server.requests.filter((r) => r.url.startsWith('/pje2g/')),
    [],
  );
});
