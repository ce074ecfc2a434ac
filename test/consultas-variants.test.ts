/**
 * Real PJe pages of other courts, through the HTTP surface (issue 44): a stand-in for TJMG's
 * consultation on loopback serves the real TJMA pages edited the way other courts print them: roles
 * with a gendered suffix (`AUTOR(A)`, `REQUERIDO(A)`: TJMG, TJPE), a Defensoria Pública printed under
 * the party it represents (TJRO), a lawyer's OAB with a UF that does not exist, a movement without its
 * time. The case answers 200 with those lines read as a person reads them (the unknown UF is the
 * lawyer's `oab: null`, never the caller's `400 INVALID_OAB`), each odd line is counted in
 * `tramita_consulta_anomalias_total`, and `/v1/integrador` shows the court's last success. A page that
 * lacks its movements table is that court's failure (503, `malformed`, at the `detalhe` step),
 * counted and shown as the court's last failure.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { pageText } from '../src/sources/http/body.ts';
import type { AddressInfo } from 'node:net';
import { createHarness, json } from './harness.ts';
import { cnjCheckDigits } from '../src/platform/identifiers/cnj.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';

const fixture = (name: string) => pageText(readFileSync(new URL(`../src/sources/consultas/fixtures/${name}`, import.meta.url)));
const TJMA_NUMBER = '0801341-50.2025.8.10.0114';
/** The same case number moved to TJMG (8.13), with its check digits. */
const numberAt = (seq: string) => `${seq}-${cnjCheckDigits(seq, '2025', '8', '13', '0114')}.2025.8.13.0114`;
const VARIANT = numberAt('0801341');
const BROKEN = numberAt('0801342');

const asTjmg = (html: string, number: string) => html.split(TJMA_NUMBER).join(number);
/** The real TJMA detail page, edited as TJMG / TJPE / TJRO print theirs. */
function variantPage(number: string): string {
  const page = asTjmg(fixture('pje-tjma-detalhe_ok.html'), number)
    .replace('(AUTOR)</span>', '(AUTOR(A))</span>')
    .replace('(REU)</span>', '(REQUERIDO(A))</span>')
    .replace('OAB MA16087-A', 'OAB XX16087-A')
    .replace('25/05/2026 01:06:12 - Publicado', '25/05/2026 - Publicado')
    .replace(/(<span title="Defensoria">)\s*(<\/span>)/, '$1DEFENSORIA PUBLICA DO ESTADO DE MINAS GERAIS$2');
  return page;
}
const SEARCH = fixture('pje-tjma-post_search_ok.html');
const LIST = fixture('pje-tjma-listView.html');

const court = http.createServer((req, res) => {
  const send = (body: string) => res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8', 'set-cookie': 'JSESSIONID=v1' }).end(body);
  const url = new URL(req.url!, 'http://x');
  if (req.method === 'GET' && url.pathname === '/pje/ConsultaPublica/listView.seam') return send(LIST);
  if (req.method === 'POST') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const asked = [...new URLSearchParams(body).values()].find((v) => v === VARIANT || v === BROKEN) ?? VARIANT;
      send(asTjmg(SEARCH, asked).replace('ca=1f6dbfb3', asked === BROKEN ? 'ca=00000000' : 'ca=1f6dbfb3'));
    });
    return;
  }
  if (url.pathname.endsWith('DetalheProcessoConsultaPublica/listView.seam')) {
    if (url.searchParams.get('ca')!.startsWith('00000000')) {
      const page = variantPage(BROKEN);
      // The movements' body gone (an id merely renamed is read by meaning since issue 52).
      return send(page.replace(/<tbody id="[^"]*processoEvento:tb">[\s\S]*?<\/tbody>/, ''));
    }
    return send(variantPage(VARIANT));
  }
  res.writeHead(404).end();
});
await new Promise<void>((r) => court.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJMG',
    TRAMITA_CONSULTA_TJMG_URL: `http://127.0.0.1:${(court.address() as AddressInfo).port}/pje`,
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s',
  },
});
after(async () => {
  await h.close();
  court.close();
});

const counted = async (name: string, labels: Record<string, string>) =>
  (await telemetry.registry.getSingleMetric(name)!.get()).values
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((sum, v) => sum + v.value, 0);

test('a TJMG page with AUTOR(A), REQUERIDO(A), a Defensoria, an OAB of no UF and a movement with no time answers its case, each odd line counted', async () => {
  const before = await counted('tramita_consulta_anomalias_total', { tribunal: 'TJMG', sistema: 'pje', campo: 'advogado.oab' });
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${VARIANT}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.deepEqual(
    d.partes.map((p: { polo: string; tipo: string; advogados: { nome: string; oab: string | null }[] }) => [
      p.polo,
      p.tipo,
      p.advogados.map((a) => [a.nome, a.oab]),
    ]),
    [
      [
        'ATIVO',
        'AUTOR',
        [
          ['DEFENSORIA PUBLICA DO ESTADO DE MINAS GERAIS', null],
          ['JOSENIEL BEZERRA DE ASSIS', null],
        ],
      ],
      ['PASSIVO', 'REQUERIDO', [['WILSON SALES BELCHIOR', 'MA11099A']]],
    ],
  );
  // 52 movements listed, 15 on this page: partial (issue 52), never answered complete.
  assert.deepEqual(d.consultaPublica.listas, {
    partes: { listados: 4, lidos: 4 },
    movimentos: { listados: 52, lidos: 15, limitado: true },
    documentos: { listados: 6, lidos: 6 },
  });
  const items = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${VARIANT}/movimentacoes?limit=50`, headers: acc.headers })).data.movimentacoes;
  assert.equal(items.length, 15, 'the movement without its time keeps its day');
  assert.equal(await counted('tramita_consulta_anomalias_total', { tribunal: 'TJMG', sistema: 'pje', campo: 'advogado.oab' }), before + 1);
  assert.ok((await counted('tramita_consulta_anomalias_total', { tribunal: 'TJMG', campo: 'movimento.data' })) >= 1);

  const tjmg = json(await h.inject({ method: 'GET', url: '/v1/integrador?uf=MG', headers: acc.headers })).data.items.find(
    (c: { sigla: string }) => c.sigla === 'TJMG',
  );
  assert.match(tjmg.origens.estado.ultimoSucessoEm, /^\d{4}-\d{2}-\d{2}T/);
  assert.ok(tjmg.origens.estado.anomalias['advogado.oab'] >= 1);
});

test('a page without its movements table is the court failing at the detail step: 503 malformed, counted, shown as its last failure', async () => {
  const before = await counted('tramita_consulta_falhas_total', { tribunal: 'TJMG', sistema: 'pje', etapa: 'detalhe', falha: 'malformed' });
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${BROKEN}`, headers: acc.headers });
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(json(res).error.details.failure, 'malformed');
  assert.equal(await counted('tramita_consulta_falhas_total', { tribunal: 'TJMG', sistema: 'pje', etapa: 'detalhe', falha: 'malformed' }), before + 1);
  const tjmg = json(await h.inject({ method: 'GET', url: '/v1/integrador?uf=MG', headers: acc.headers })).data.items.find(
    (c: { sigla: string }) => c.sigla === 'TJMG',
  );
  assert.equal(tjmg.origens.estado.ultimaFalha.etapa, 'detalhe');
  assert.equal(tjmg.origens.estado.ultimaFalha.falha, 'malformed');
  assert.doesNotMatch(tjmg.origens.estado.ultimaFalha.motivo, /FICTICIO|BEZERRA/, 'never page content');
});
