/** The route map (docs/endpoints.md, scripts/endpoints.ts): every route is traced to its file, every spec operation listed once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';
import { registeredRoutes, routeKey } from '../scripts/endpoints.ts';
import { SPEC_OPERATIONS, SPEC_SECTIONS } from '../scripts/spec-operations.ts';

test('every /v1 route records the capability (or platform/async) file that declares it, and that file exists', async () => {
  for (const r of (await registeredRoutes()).filter((x) => x.url.startsWith('/v1'))) {
    assert.ok(r.file, `${r.method} ${r.url} has no declaring file`);
    assert.match(r.file, /^src\/(capabilities\/[a-z-]+|platform\/async)\/[a-z-]+\.ts$/, `${r.method} ${r.url}: ${r.file}`);
    assert.ok(fs.existsSync(path.join(PROJECT_ROOT, r.file)), r.file);
  }
});

test('the spec list names each operation once, in a known section', () => {
  const keys = SPEC_OPERATIONS.map((o) => routeKey(o.method, o.path));
  assert.equal(new Set(keys).size, keys.length);
  for (const o of SPEC_OPERATIONS) assert.ok(SPEC_SECTIONS[o.section], `${o.method} ${o.path}: §${o.section}`);
});

test('a spec path and a route match whatever their parameters are called', () => {
  assert.equal(
    routeKey('GET', '/v1/processos/cnj/{cnj}/documentos/{documentId}/download'),
    routeKey('GET', '/v1/processos/cnj/:numero/documentos/:id/download'),
  );
  assert.notEqual(routeKey('GET', '/v1/processos/cnj/{cnj}'), routeKey('POST', '/v1/processos/cnj/:cnj'));
});
