/**
 * `tramita consultas verificar` (issue 44 item 5) against the sandbox with one court's page changed: TJSP
 * is the sandbox's e-SAJ simulator; TJAL's consultation is a stand-in on loopback whose case page lost
 * its case header (a layout change). The table says TJSP answered and its page was read, TJAL answered
 * (reachable, no challenge) but its page could not be read (`malformed`), and the command exits 1.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { pageText } from '../src/sources/http/body.ts';
import os from 'node:os';
import path from 'node:path';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import type { AddressInfo } from 'node:net';
import { createHarness } from './harness.ts';
import { consultasCommand, type VerificationRow } from '../src/cli/consultas.ts';

const PAGE = pageText(readFileSync(new URL('../src/sources/consultas/fixtures/esaj-1.html', import.meta.url)));
/** TJAL's page after a change of layout: the case header's ids are gone. */
const CHANGED = PAGE.replace(/id="numeroProcesso"/g, 'id="numeroDoProcesso"');

const tjal = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  res.setHeader('content-type', 'text/html;charset=UTF-8');
  if (url.pathname === '/cpopg/search.do') return res.writeHead(302, { location: '/cpopg/show.do?processo.codigo=X1&processo.foro=1' }).end();
  res.writeHead(200).end(url.pathname === '/cpopg/show.do' ? CHANGED : '<html><body><form id="formConsulta"></form></body></html>');
});
await new Promise<void>((r) => tjal.listen(0, '127.0.0.1', r));

/** TJAC's page after another change (issue 52): the case reads, but its parties' rows lost the class the parser knew them by. */
const TJAC_CNJ = '1000149-67.2024.8.01.0346';
const NO_PARTIES = PAGE.replaceAll('1000149-71.2024.8.26.0346', TJAC_CNJ).replaceAll('class="nomeParteEAdvogado"', 'class="nomeDaParte"');
const tjac = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  res.setHeader('content-type', 'text/html;charset=UTF-8');
  if (url.pathname === '/cpopg/search.do') return res.writeHead(302, { location: '/cpopg/show.do?processo.codigo=X1&processo.foro=1' }).end();
  res.writeHead(200).end(url.pathname === '/cpopg/show.do' ? NO_PARTIES : '<html><body><form id="formConsulta"></form></body></html>');
});
await new Promise<void>((r) => tjac.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJSP,TJAL,TJAC',
    TRAMITA_CONSULTA_TJAL_URL: `http://127.0.0.1:${(tjal.address() as AddressInfo).port}`,
    TRAMITA_CONSULTA_TJAC_URL: `http://127.0.0.1:${(tjac.address() as AddressInfo).port}`,
  },
});
after(async () => {
  await h.close();
  tjal.close();
  tjac.close();
});

test('one court whose page changed is flagged: reachable, no challenge, its page not read; the other reads; exit 1', async () => {
  const sandbox = h.sources.sandbox!;
  const tjsp = sandbox.dataset.cases.find((x) => x.court.sigla === 'TJSP' && x.filedAt <= sandbox.dataset.now())!;
  const lines: string[] = [];
  const code = await consultasCommand(
    h.services,
    ['verificar', 'TJSP', 'TJAL', '--processo', `TJSP=${tjsp.numero}`, '--processo', 'TJAL=0000001-02.2024.8.02.0001', '--json'],
    (l) => lines.push(l),
  );
  const rows = JSON.parse(lines.join('\n')) as VerificationRow[];
  assert.deepEqual(
    rows.map((r) => [r.tribunal, r.alcancavel, r.desafio, r.pagina]),
    [
      ['TJSP', true, null, 'caso'],
      ['TJAL', true, null, 'malformed'],
    ],
  );
  assert.equal(code, 1);

  const table: string[] = [];
  assert.equal(await consultasCommand(h.services, ['verificar', 'TJSP', '--processo', `TJSP=${tjsp.numero}`], (l) => table.push(l)), 0);
  assert.match(table.join('\n'), /^TJSP\s+esaj\s+\d{20}\s+sim\s+—\s+caso\s/m);
  await assert.rejects(
    consultasCommand(h.services, ['verificar', 'TJRS'], () => {}),
    /not an enabled consultation/,
  );
});

test('a page read with a section that yields nothing (parties) is flagged as the layout change it is: the anomaly shown, exit 1', async () => {
  const lines: string[] = [];
  const code = await consultasCommand(h.services, ['verificar', 'TJAC', '--processo', `TJAC=${TJAC_CNJ}`, '--json'], (l) => lines.push(l));
  const [row] = JSON.parse(lines.join('\n')) as VerificationRow[];
  assert.deepEqual([row!.tribunal, row!.pagina, row!.anomalias], ['TJAC', 'caso', { 'partes.secao': 1 }]);
  assert.equal(code, 1);
  // origens: the court's state counts it too (what /v1/integrador shows per court).
  const acc = await h.createAccount({ credits: 1000 });
  const tjacState = (await h.inject({ method: 'GET', url: '/v1/integrador?uf=AC', headers: acc.headers }))
    .json()
    .data.items.find((c: { sigla: string }) => c.sigla === 'TJAC');
  assert.equal(tjacState.origens.estado.anomalias['partes.secao'], 1);
});

test('consultas esqueleto: the pages of a case saved reduced to their structure, no party named in them', async () => {
  const sandbox = h.sources.sandbox!;
  const tjsp = sandbox.dataset.cases.find((x) => x.court.sigla === 'TJSP' && x.filedAt <= sandbox.dataset.now() && x.partes.length > 0)!;
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'tramita-esqueleto-')), 'out');
  const lines: string[] = [];
  assert.equal(await consultasCommand(h.services, ['esqueleto', tjsp.numero, dir], (l) => lines.push(l)), 0);
  const files = readdirSync(dir);
  assert.deepEqual(files, ['01-GET-open.do-200.html', '02-GET-show.do-200.html'], 'the search answered a redirect, followed to the case page');
  assert.match(lines.at(-1)!, /pages saved .* answered: caso$/);
  const saved = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
  assert.match(saved, /id="numeroProcesso"/, 'the structure travels');
  for (const p of tjsp.partes) assert.ok(!saved.includes(p.person.nome), 'the people do not');
  assert.ok(!saved.includes(formatCnj(tjsp.numero)));
  await assert.rejects(
    consultasCommand(h.services, ['esqueleto', tjsp.numero, dir], () => {}),
    /not empty/,
  );
});
