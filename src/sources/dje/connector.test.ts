/** DjeConnector against the sandbox's electoral gazettes on 127.0.0.1: day indexes, real PDFs split into matérias, and the failures it maps. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brasiliaDay } from '../../platform/format.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { DjeConnector } from './connector.ts';

let sb: TestSandbox;
let dje: DjeConnector;
before(async () => {
  sb = await startTestSandbox();
  dje = new DjeConnector({ baseUrl: sb.djeUrl, sandbox: true, perMinute: 100_000, retryDelaysMs: [1, 1], sleep: async () => {} });
});
after(async () => {
  await dje.close();
  await sb.close();
});

const DAY = '2026-03-09'; // a Monday before the test anchor
const failure = (f: string) => (err: unknown) => err instanceof SourceError && err.failure === f && err.source === 'dje';

test('a business day has one edition per court; its PDF is split into every matéria with number, class, parties and lawyers with OAB', async () => {
  const [edition] = await dje.editions('TRE-SP', DAY);
  assert.equal(edition.tribunal, 'TRE-SP');
  assert.equal(edition.data, DAY);
  const expected = sb.dje.gazette.edition('TRE-SP', edition.numero)!;
  const pubs = await dje.publications(edition);
  assert.equal(pubs.length, expected.materias.length);
  pubs.forEach((p, i) => {
    const m = expected.materias[i];
    assert.equal(p.id, `TRE-SP:${edition.numero}:${i + 1}`);
    assert.equal(p.numeroCnj, m.numeroCnj.replace(/\D/g, ''));
    assert.match(p.numeroCnj!, /^\d{13}626\d{4}$/, 'J=6, TR 26 (SP)');
    assert.equal(p.classe, m.classe);
    assert.deepEqual(
      p.partes.map((x) => x.nome),
      m.partes.map((x) => x.nome),
    );
    // Each registration once, in both notations: the header's without the letter (`123455/SP`), the body's with it (`OAB/SP123455-A`).
    const oabs = m.partes.flatMap((x) => x.advogados).flatMap((a) => (a.oab ? [a.oab] : []));
    assert.deepEqual(
      p.advogados.filter((a) => a.oab).map((a) => `${a.oab!.uf}${a.oab!.numero}`),
      [...new Set([...oabs.map((o) => o.replace(/[A-Z]$/, '')), ...oabs])],
    );
    assert.equal(p.publicacao, '2026-03-10', 'PUBLICAÇÃO EM: the next business day');
    assert.ok(p.texto.replace(/\s+/g, ' ').includes('Documento fictício do sandbox'), 'the decision text, across wrapped lines');
  });
});

test('a weekend and a holiday have no edition; an extra edition appears beside the ordinary one', async () => {
  assert.deepEqual(await dje.editions('TSE', '2026-03-08'), []);
  sb.dje.set({ holidays: [DAY] });
  try {
    assert.deepEqual(await dje.editions('TSE', DAY), []);
  } finally {
    sb.dje.reset();
  }
  const published = sb.dje.publish({ tribunal: 'TSE', parte: 'FULANO DE TESTE', oab: 'DF12345' });
  // Today as the gazette dates it: the day in Brasília.
  const today = brasiliaDay(sb.clock.now().toISOString())!;
  const editions = await dje.editions('TSE', today);
  const extra = editions.find((e) => e.extra)!;
  assert.equal(extra.numero, published.edicao);
  const [m] = await dje.publications(extra);
  assert.deepEqual(m.advogados[0].oab, { uf: 'DF', numero: '12345' });
  assert.equal(m.partes[0].nome, 'FULANO DE TESTE');
});

test('a PDF is read in a worker thread within a time limit per document: past it the edition fails (timeout, not retried)', async () => {
  const [edition] = await dje.editions('TSE', DAY);
  const hurried = new DjeConnector({ baseUrl: sb.djeUrl, sandbox: true, perMinute: 100_000, retryDelaysMs: [1, 1], sleep: async () => {}, pdfTimeoutMs: 1 });
  try {
    await assert.rejects(
      hurried.publications(edition),
      (err) => failure('timeout')(err) && /could not be read: not read within 1 ms/.test((err as Error).message),
    );
  } finally {
    await hurried.close();
  }
  assert.ok((await dje.publications(edition)).length > 0, 'within the default limit the same edition is read');
});

test('a PDF cut in half is malformed, never an empty edition; 5xx and hangs are failures, not data', async () => {
  const [edition] = await dje.editions('TSE', DAY);
  sb.dje.set({ truncatePdf: true });
  try {
    await assert.rejects(dje.publications(edition), failure('malformed'));
  } finally {
    sb.dje.reset();
  }
  sb.faults.set({ upstream: 'dje', status: 503 });
  try {
    await assert.rejects(dje.editions('TSE', DAY), failure('unavailable'));
  } finally {
    sb.faults.reset();
  }
  const quick = new DjeConnector({ baseUrl: sb.djeUrl, timeoutMs: 200, retries: 0, perMinute: 100_000 });
  sb.faults.set({ upstream: 'dje', hang: true });
  try {
    await assert.rejects(quick.editions('TSE', DAY), failure('timeout'));
  } finally {
    sb.faults.reset();
    await quick.close();
  }
});
