/**
 * The SDK cannot drift from the API: its generated types and methods are what scripts/sdk-types.ts
 * makes of the current OpenAPI document, and the package compiles as published (DOM and ES2022 only,
 * no Node types: edge runtimes) into JavaScript that plain Node imports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/config.ts';
import { currentOpenApi, GENERATED_SDK_FILE, sdkSource } from '../scripts/sdk-types.ts';

const SDK = path.join(PROJECT_ROOT, 'packages', 'sdk');

test('packages/sdk/src/generated.ts is what the current OpenAPI document generates (npm run build -w packages/sdk)', async () => {
  const expected = sdkSource(await currentOpenApi());
  assert.ok(fs.readFileSync(GENERATED_SDK_FILE, 'utf8') === expected, 'stale: run `npm run build -w packages/sdk` and commit packages/sdk/src/generated.ts');
});

test('the package compiles as published and its JavaScript loads in plain Node', async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-sdk-'));
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  const tsc = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc');
  await promisify(execFile)(tsc, ['-p', path.join(SDK, 'tsconfig.json'), '--outDir', out], { timeout: 120_000 }).catch((err: { stdout?: string }) =>
    assert.fail(`tsc failed:\n${err.stdout}`),
  );
  const pkg = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8'));
  assert.equal(pkg.exports['.'].import, './dist/index.js');
  assert.ok(fs.existsSync(path.join(out, 'index.d.ts')));
  const sdk = await import(pathToFileURL(path.join(out, 'index.js')).href);
  assert.equal(typeof sdk.Tramita, 'function');
  assert.equal(typeof sdk.verifyWebhook, 'function');
  assert.equal(typeof new sdk.Tramita({ baseUrl: 'http://127.0.0.1:1', apiKey: 'tk_x' }).getProcessosCnjByCnj, 'function');
});
