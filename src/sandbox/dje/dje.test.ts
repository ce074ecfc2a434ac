/** The sandbox's DJE eleitoral and mural over real HTTP: the routes, their refusals, the board's token check, and the knobs' control endpoints. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const DAY = '09/03/2026';

test('DJE: the day index in the TJSC shape with trib, the edition as a PDF, and 400/404 for what does not exist', async () => {
  const index = await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/dia?dia=${DAY}&trib=TRE-BA`);
  assert.equal(index.status, 200);
  const body = (await index.json()) as Record<string, { edicao: number; extra: boolean }[]>;
  const [edition] = body['2026-03-09'];
  assert.equal(edition.extra, false);
  const pdf = await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/caderno?edicao=${edition.edicao}&trib=TRE-BA`);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.equal(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  assert.equal((await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/dia?dia=2026-03-09&trib=TSE`)).status, 400);
  assert.equal((await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/dia?dia=${DAY}&trib=TRE-XX`)).status, 400);
  assert.equal((await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/caderno?edicao=899999&trib=TSE`)).status, 404, 'a future edition');
});

test('DJE: knobs and the extra edition over the control endpoints', async () => {
  const put = await fetch(`${sb.url}/_sandbox/dje`, { method: 'PUT', body: JSON.stringify({ holidays: ['2026-03-09'] }) });
  assert.deepEqual(await put.json(), { holidays: ['2026-03-09'], truncatePdf: false });
  const index = (await (await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/dia?dia=${DAY}&trib=TSE`)).json()) as Record<string, unknown[]>;
  assert.deepEqual(index['2026-03-09'], []);
  assert.equal((await fetch(`${sb.url}/_sandbox/dje`, { method: 'PUT', body: JSON.stringify({ holydays: [] }) })).status, 400);
  await fetch(`${sb.url}/_sandbox/dje`, { method: 'DELETE' });
  const extra = await fetch(`${sb.url}/_sandbox/dje/edicao-extra`, {
    method: 'POST',
    body: JSON.stringify({ tribunal: 'TRE-PR', oab: 'PR12345', parte: 'FULANA' }),
  });
  assert.equal(extra.status, 201);
  const created = (await extra.json()) as { edicao: number; numeroProcesso: string };
  assert.match(created.numeroProcesso, /\.6\.16\./);
  assert.equal((await fetch(`${sb.url}/_sandbox/dje/edicao-extra`, { method: 'POST', body: JSON.stringify({ tribunal: 'TJPR' }) })).status, 400);
});

test('mural: the back end refuses every search (no token: 400; any token: 403, none can be valid here) and serves downloads', async () => {
  const search = (body: unknown) =>
    fetch(`${sb.muralUrl}/mural-consulta-back-end/rest/publicacao/consulta/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  assert.equal((await search({ texto: '"FULANO"[part]', quantidade: 5 })).status, 400);
  assert.equal((await search({ texto: '"FULANO"[part]', quantidade: 5, token: 'forjado' })).status, 403);
  const [item] = sb.mural.day('TSE', 20_521);
  if (item) {
    const doc = await fetch(`${sb.muralUrl}/mural-consulta-back-end/rest/publicacao/download/${item.id}`);
    assert.equal(doc.headers.get('content-type'), 'application/pdf');
  }
});

test('mural provider protocol: search needs a person or lawyer, bounds the period, pages by 20', async () => {
  const base = `${sb.muralProviderUrl}/publicacoes`;
  assert.equal((await fetch(`${base}?tribunal=TSE`)).status, 400);
  assert.equal((await fetch(`${base}?parte=x&de=2026-01-01&ate=2026-06-01`)).status, 400);
  const item = sb.mural.day('TRE-SP', 20_521)[0] ?? sb.mural.day('TSE', 20_521)[0];
  if (!item) return;
  const res = await fetch(`${base}?parte=${encodeURIComponent(item.partes[0].nome)}&de=2026-03-09&ate=2026-03-09`);
  const body = (await res.json()) as { publicacoes: { id: string }[]; pagina: number; proximaPagina: boolean };
  assert.ok(body.publicacoes.some((p) => p.id === item.id));
  assert.equal(body.pagina, 1);
});
