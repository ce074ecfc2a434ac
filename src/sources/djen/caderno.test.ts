/** Cadernos: metadata, the ZIP streamed to a temporary file, one JSON page per sink call, cleanup. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import { DjenConnector, type DjenConnectorOptions } from './connector.ts';
import { FakeDjen, fakeItem, realSample, zipOf, type Handler } from './testing/fake-djen.ts';
import { recordingSleep } from '../testing/sleeps.ts';

const METADATA_PATH = '/djen/api/v1/caderno/TJRS/2026-09-18/D';

interface Setup {
  api: FakeDjen;
  files: FakeDjen;
  c: DjenConnector;
  tempDir: string;
}

/** DJEN's API and, on another host (port), the file server of the temporary URLs. */
async function setup(t: TestContext, api: Handler, files: Handler, options: Partial<DjenConnectorOptions> = {}): Promise<Setup> {
  const apiFake = await FakeDjen.start(api);
  const filesFake = await FakeDjen.start(files);
  const tempDir = await mkdtemp(join(tmpdir(), 'djen-caderno-test-'));
  const c = new DjenConnector({
    baseUrl: `${apiFake.url}/djen`,
    timeoutMs: 2_000,
    requestsPerMinute: 100_000,
    sleep: recordingSleep(),
    random: () => 0.5,
    tempDir,
    ...options,
  });
  t.after(async () => {
    await c.close();
    await apiFake.close();
    await filesFake.close();
    await rm(tempDir, { recursive: true, force: true });
  });
  return { api: apiFake, files: filesFake, c, tempDir };
}

function metadata(url: string | null, status = 'Processado', total = 5): unknown {
  return {
    tribunal: 'Tribunal de Justiça do Estado do Rio Grande do Sul',
    sigla_tribunal: 'TJRS',
    meio: 'D',
    status,
    versao: '1',
    data: '2026-09-18',
    total_comunicacoes: total,
    numero_paginas: 2,
    tamanho_bytes: '1234',
    hash: 'c40025ad',
    url,
  };
}

function isFailure(kind: string) {
  return (err: unknown) => {
    assert.ok(err instanceof SourceError, String(err));
    assert.equal(err.failure, kind, err.message);
    return true;
  };
}

async function twoPageZip(): Promise<Buffer> {
  return zipOf([
    ['caderno/pagina-1.json', JSON.stringify({ items: realSample().items })],
    ['caderno/LEIA-ME.txt', 'not a page'],
    ['caderno/pagina-2.json', JSON.stringify({ items: [fakeItem(11, '2026-09-18'), fakeItem(12, '2026-09-18')] })],
  ]);
}

test('a processed caderno: metadata, ZIP from another host, one sink call per JSON page, progress, temp file removed', async (t) => {
  const zip = await twoPageZip();
  const { api, files, c, tempDir } = await setup(
    t,
    (req) => ({ json: req.path === METADATA_PATH ? metadata(`${files.url}/tmp/caderno.zip?X-Amz-Signature=abc`) : {} }),
    () => ({ body: zip }),
  );
  const batches: PublicationRecord[][] = [];
  const progress: Array<[number, number]> = [];
  let sinking = false;
  const info = await c.caderno(
    'tjrs',
    '2026-09-18',
    'D',
    async (records) => {
      assert.equal(sinking, false, 'the next page waits for the sink');
      sinking = true;
      // While the sink holds a page, the ZIP is on disk (streamed, not in memory).
      assert.equal((await readdir(tempDir)).length, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      batches.push(records);
      sinking = false;
    },
    { onProgress: (done, total) => progress.push([done, total]) },
  );
  assert.deepEqual(info, { tribunal: 'TJRS', data: '2026-09-18', meio: 'D', status: 'Processado', total: 5, paginas: 2 });
  assert.deepEqual(
    batches.map((b) => b.map((r) => r.id)),
    [
      ['731069288', '729551261', '726236707'],
      ['11', '12'],
    ],
  );
  assert.equal(batches[0][1].advogados.length, 4);
  assert.deepEqual(progress, [
    [3, 5],
    [5, 5],
  ]);
  assert.deepEqual(await readdir(tempDir), [], 'the temporary file is removed');
  assert.deepEqual(
    api.requests.map((r) => r.path),
    [METADATA_PATH],
  );
  assert.deepEqual(
    files.requests.map((r) => `${r.path}?${r.query}`),
    ['/tmp/caderno.zip?X-Amz-Signature=abc'],
  );
  assert.deepEqual(c.stats(), { requests: 2, retries: 0, failures: 0 }, 'the download spends one request');
});

test('a caderno not processed ("Sem comunicações", "Em processamento") returns its info without calling the sink', async (t) => {
  let status = 'Sem comunicações';
  const { api, files, c } = await setup(
    t,
    () => ({ json: metadata(null, status, 0) }),
    () => ({ status: 500 }),
  );
  let calls = 0;
  const sink = async () => {
    calls++;
  };
  assert.deepEqual(await c.caderno('TJRS', '2026-09-18', 'D', sink), {
    tribunal: 'TJRS',
    data: '2026-09-18',
    meio: 'D',
    status: 'Sem comunicações',
    total: 0,
    paginas: 2,
  });
  status = 'Em processamento';
  assert.equal((await c.caderno('TJRS', '2026-09-18', 'D', sink)).status, 'Em processamento');
  assert.equal(calls, 0);
  assert.equal(api.requests.length, 2);
  assert.equal(files.requests.length, 0);
});

test('a file that is not a ZIP is malformed, and the temporary file is still removed', async (t) => {
  const { files, c, tempDir } = await setup(
    t,
    () => ({ json: metadata(`${files.url}/x.zip`) }),
    () => ({ body: Buffer.from('<html>AccessDenied</html>'.repeat(10)) }),
  );
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async () => {}),
    isFailure('malformed'),
  );
  assert.deepEqual(await readdir(tempDir), []);
  assert.equal(c.stats().failures, 1);
});

test('a page that is not {items:[…]}, or over the page limit, is malformed', async (t) => {
  let zip = await zipOf([['p1.json', '{"items": "nope"}']]);
  const { files, c, tempDir } = await setup(
    t,
    () => ({ json: metadata(`${files.url}/x.zip`) }),
    () => ({ body: zip }),
    { maxCadernoPageBytes: 1_000 },
  );
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async () => {}),
    isFailure('malformed'),
  );
  zip = await zipOf([['p1.json', JSON.stringify({ items: realSample().items })]]);
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async () => {}),
    (err) => isFailure('malformed')(err) && /limit/.test((err as Error).message),
  );
  assert.deepEqual(await readdir(tempDir), []);
});

test("the pages of a ZIP are bounded together, not only each: past the total (by the ZIP's size) it is malformed, counted and not read further", async (t) => {
  // Three pages, each far under the page limit, of blanks that compress about 1,000 times.
  const padded = (id: number) => `{"items": [${JSON.stringify(fakeItem(id, '2026-09-18'))}]${' '.repeat(300_000)}}`;
  const zip = await zipOf([
    ['p1.json', padded(21)],
    ['p2.json', padded(22)],
    ['p3.json', padded(23)],
  ]);
  const { files, c, tempDir } = await setup(
    t,
    () => ({ json: metadata(`${files.url}/x.zip`) }),
    () => ({ body: zip }),
    { maxCadernoPageBytes: 1_000_000, maxCadernoUnzippedBytes: (zipBytes) => 40 * zipBytes + 400_000 },
  );
  const before = (await telemetry.upstreamBodiesRefused.get()).values.find((v) => v.labels.failure === 'unzipped_too_large')?.value ?? 0;
  const pages: string[][] = [];
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async (items) => {
      pages.push(items.map((i) => i.id));
    }),
    (err) => isFailure('malformed')(err) && /unzips to more than/.test((err as Error).message),
  );
  assert.deepEqual(pages, [['21']], 'the first page was read; the second would pass the total');
  const after = (await telemetry.upstreamBodiesRefused.get()).values.find((v) => v.labels.failure === 'unzipped_too_large')?.value ?? 0;
  assert.equal(after, before + 1, 'counted once');
  assert.deepEqual(await readdir(tempDir), []);
});

test('a refused temporary URL (expired) asks the metadata again for a fresh one, once', async (t) => {
  const zip = await twoPageZip();
  let metadataCalls = 0;
  const { api, files, c } = await setup(
    t,
    () => ({ json: metadata(`${files.url}/v${++metadataCalls}.zip`) }),
    (req) => (req.path === '/v1.zip' ? { status: 403, text: 'Request has expired' } : { body: zip }),
  );
  let pages = 0;
  await c.caderno('TJRS', '2026-09-18', 'D', async () => {
    pages++;
  });
  assert.equal(pages, 2);
  assert.equal(api.requests.length, 2);
  assert.deepEqual(
    files.requests.map((r) => r.path),
    ['/v1.zip', '/v2.zip'],
  );
});

test('a sink failure stops the ingestion as is, and the temporary file is removed', async (t) => {
  const zip = await twoPageZip();
  const { files, c, tempDir } = await setup(
    t,
    () => ({ json: metadata(`${files.url}/x.zip`) }),
    () => ({ body: zip }),
  );
  let calls = 0;
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async () => {
      calls++;
      throw new Error('database is down');
    }),
    /database is down/,
  );
  assert.equal(calls, 1);
  assert.deepEqual(await readdir(tempDir), []);
});

test('metadata failures are the usual ones (403 geoblocked); bad arguments are RangeErrors', async (t) => {
  const { c } = await setup(
    t,
    () => ({ status: 403 }),
    () => ({ status: 500 }),
  );
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'D', async () => {}),
    isFailure('geoblocked'),
  );
  assert.deepEqual(c.stats(), { requests: 1, retries: 0, failures: 1 }, 'counted once');
  await assert.rejects(
    c.caderno('TJRS', '18/09/2026', 'D', async () => {}),
    RangeError,
  );
  await assert.rejects(
    c.caderno('TJRS', '2026-09-18', 'X' as 'D', async () => {}),
    RangeError,
  );
});
