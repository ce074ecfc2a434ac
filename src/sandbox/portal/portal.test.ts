/** The portal simulator over real HTTP on 127.0.0.1: case details, party lookups, PDF documents, time. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { centavosToReais } from './server.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const now = () => sb.dataset.now();
const get = async (path: string) => {
  const res = await fetch(`${sb.portalUrl}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), bytes: Buffer.from(await res.arrayBuffer()) };
};
const getJson = async (path: string) => {
  const r = await get(path);
  return { ...r, body: JSON.parse(r.bytes.toString('utf8')) };
};

test('GET /api/v1/processos/{cnj}: value as a decimal string, parties, lawyers, documents', async () => {
  const c = sb.dataset.cases.find((x) => x.filedAt <= now() && x.valorCausaCentavos !== null && x.documentos.some((d) => d.juntadaAt <= now()))!;
  const { status, type, body } = await getJson(`/api/v1/processos/${c.numero}`);
  assert.equal(status, 200);
  assert.match(type!, /^application\/json/);
  assert.deepEqual(Object.keys(body), ['numeroProcesso', 'valorCausa', 'partes', 'documentos']);
  assert.equal(body.numeroProcesso, c.numero);
  assert.match(body.valorCausa, /^\d+\.\d{2}$/);
  assert.equal(body.valorCausa, centavosToReais(c.valorCausaCentavos!));
  assert.equal(body.partes.length, c.partes.length);
  for (const p of body.partes) {
    assert.ok(['ATIVO', 'PASSIVO', 'OUTROS'].includes(p.polo));
    assert.ok(['FISICA', 'JURIDICA'].includes(p.tipoPessoa));
    assert.ok(p.documento === null || /^[0-9A-Z]{11,14}$/.test(p.documento));
    for (const a of p.advogados) assert.ok(a.oab === null || /^[A-Z]{2}\d+$/.test(a.oab));
  }
  for (const d of body.documentos) {
    assert.deepEqual(Object.keys(d), ['id', 'titulo', 'tipo', 'dataJuntada', 'mimeType', 'tamanho']);
    assert.equal(d.mimeType, 'application/pdf');
    assert.ok(Number.isInteger(d.tamanho) && d.tamanho > 500);
  }
});

test('centavos become reais without float error', () => {
  assert.equal(centavosToReais(1999), '19.99');
  assert.equal(centavosToReais(5), '0.05');
  assert.equal(centavosToReais(500_000_000), '5000000.00');
});

test('unknown number → 404 "processo não encontrado"; a malformed one → 400', async () => {
  const missing = await getJson('/api/v1/processos/00000000000000000000');
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { message: 'processo não encontrado' });
  assert.equal((await getJson('/api/v1/processos/0000832-35.2018.4.01.3202')).status, 400);
  assert.equal((await getJson('/api/v1/nada')).status, 404);
});

test('GET /api/v1/partes/processos by documento and by nome, newest first', async () => {
  const ex = sb.dataset.examples();
  const byDoc = await getJson(`/api/v1/partes/processos?documento=${ex.document}`);
  assert.equal(byDoc.status, 200);
  assert.deepEqual(
    byDoc.body.processos,
    sb.dataset.casesByDocument(ex.document!).map((c) => c.numero),
  );
  assert.ok(byDoc.body.processos.length >= 2);
  const filed = byDoc.body.processos.map((n: string) => sb.dataset.getCase(n)!.filedAt);
  assert.deepEqual(
    filed,
    [...filed].sort((a: number, b: number) => b - a),
  );
  const folded = ex
    .name!.normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const byName = await getJson(`/api/v1/partes/processos?${new URLSearchParams({ nome: folded })}`);
  assert.ok(byDoc.body.processos.every((n: string) => byName.body.processos.includes(n)));
  assert.deepEqual((await getJson('/api/v1/partes/processos?documento=11144477735')).body, { processos: [] });
  assert.equal((await getJson('/api/v1/partes/processos')).status, 400);
  assert.equal((await getJson('/api/v1/partes/processos?documento=1&nome=x')).status, 400);
  assert.equal((await getJson('/api/v1/partes/processos?nome=')).status, 400);
});

test('documents download as real PDFs whose length is the advertised tamanho', async () => {
  const c = sb.dataset.cases.find((x) => x.filedAt <= now() && x.documentos.filter((d) => d.juntadaAt <= now()).length >= 2)!;
  const { body } = await getJson(`/api/v1/processos/${c.numero}`);
  for (const d of body.documentos) {
    const pdf = await get(`/api/v1/processos/${c.numero}/documentos/${d.id}`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.bytes.subarray(-8).toString('latin1').includes('%%EOF'));
    assert.equal(pdf.bytes.length, d.tamanho);
    assert.equal(Number(pdf.length), d.tamanho);
    const again = await get(`/api/v1/processos/${c.numero}/documentos/${d.id}`);
    assert.ok(again.bytes.equals(pdf.bytes), 'deterministic bytes');
  }
  const unknown = await getJson(`/api/v1/processos/${c.numero}/documentos/nope`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { message: 'documento não encontrado' });
});

test('future cases and documents appear when the clock passes them', async () => {
  const start = sb.clock.now();
  try {
    const future = sb.dataset.cases.find((c) => c.filedAt > now())!;
    assert.equal((await getJson(`/api/v1/processos/${future.numero}`)).status, 404);
    const withLateDoc = sb.dataset.cases.find((c) => c.filedAt <= now() && c.documentos.some((d) => d.juntadaAt > now()))!;
    const late = withLateDoc.documentos.find((d) => d.juntadaAt > now())!;
    const before = await getJson(`/api/v1/processos/${withLateDoc.numero}`);
    assert.ok(!before.body.documentos.some((d: { id: string }) => d.id === late.id));
    assert.equal((await get(`/api/v1/processos/${withLateDoc.numero}/documentos/${late.id}`)).status, 404);
    sb.clock.set(new Date(Math.max(future.filedAt, late.juntadaAt)));
    assert.equal((await getJson(`/api/v1/processos/${future.numero}`)).status, 200);
    const afterwards = await getJson(`/api/v1/processos/${withLateDoc.numero}`);
    assert.ok(afterwards.body.documentos.some((d: { id: string }) => d.id === late.id));
  } finally {
    sb.clock.set(start);
  }
});
