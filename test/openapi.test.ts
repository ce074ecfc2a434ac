/**
 * The OpenAPI document is one tools can use (issue 13 item 8): `redocly lint` (recommended rules)
 * finds no error and no warning; every operation has a unique operationId, named schemas and an
 * example; files are declared as binary; idempotency, estimates, the 202's and rate limits' headers
 * are documented.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHarness, json } from './harness.ts';

const h = await createHarness({});
test.after(() => h.close());
const doc = json(await h.inject({ method: 'GET', url: '/v1/openapi.json' }));
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
  Object.entries(item).map(([method, op]) => ({ path: p, method, op })),
);

test('redocly lint passes with no error and no warning', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-openapi-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const cli = path.join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json', '--max-problems=50'], {
    timeout: 60_000,
    maxBuffer: 10_000_000,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems?.slice(0, 5), null, 1));
});

test('every operation has a unique operationId, named schemas and an example of its answer', () => {
  const ids = operations.map((o) => o.op.operationId);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(doc.paths['/v1/processos/cnj/{cnj}/movimentacoes'].get.operationId, 'getProcessosCnjByCnjMovimentacoes');
  for (const { path: p, method, op } of operations) {
    const ok = op.responses['200'] ?? op.responses['201'];
    const jsonBody = ok?.content?.['application/json'];
    if (!jsonBody) continue;
    // A keyed operation's 200 is its envelope or, to `Prefer: return=estimate`, the Estimate.
    for (const branch of jsonBody.schema.anyOf ?? [jsonBody.schema]) assert.match(branch.$ref, /^#\/components\/schemas\//, `${method} ${p}: a named schema`);
    assert.ok(jsonBody.example, `${method} ${p}: an example`);
  }
  assert.ok(doc.components.schemas.Error);
  assert.equal(doc.paths['/v1/processos/cnj/{cnj}/resumo-ia'].get.responses['429'].content['application/json'].schema.$ref, '#/components/schemas/Error');
  const balance = doc.paths['/v1/conta/saldo'].get.responses['200'].content['application/json'].example;
  assert.equal(balance.data.currency, 'BRL');
  assert.deepEqual(
    doc.paths['/v1/conta/saldo'].get.responses['200'].content['application/json'].schema.anyOf.map((b: { $ref: string }) => b.$ref),
    ['#/components/schemas/GetContaSaldoResponse', '#/components/schemas/Estimate'],
  );
  assert.equal(doc.paths['/v1/processos/cnj/{cnj}/pdf'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Estimate');
});

test('files are binary; idempotency, estimates, the 202 and rate limits are documented; servers is set', () => {
  assert.ok(doc.paths['/v1/processos/cnj/{cnj}/pdf'].get.responses['200'].content['application/pdf']);
  assert.ok(doc.paths['/v1/processos/cnj/{cnj}/documentos/{documentId}/download'].get.responses['200'].content['*/*']); // the file's own media type
  const movements = doc.paths['/v1/processos/cnj/{cnj}/movimentacoes'].get;
  const headers = movements.parameters
    .filter((p: any) => p.in === 'header')
    .map((p: any) => p.name)
    .sort();
  assert.deepEqual(headers, ['accept-language', 'idempotency-key', 'prefer']);
  assert.ok(movements.responses['202'].headers.Location && movements.responses['202'].headers['Retry-After']);
  assert.ok(movements.responses['200'].headers['RateLimit-Remaining']);
  assert.ok(doc.paths['/v1/monitoramentos/processos'].post.parameters.some((p: any) => p.name === 'idempotency-key'));
  assert.ok(doc.servers.length > 0);
});
