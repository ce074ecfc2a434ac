/**
 * docs/integracao.md stays true: every ```sh, ```ts and ```python block of the guide runs, as written,
 * against a Tramita server listening on 127.0.0.1 with the sandbox (curl, Node and python3, with
 * TRAMITA_URL, TRAMITA_KEY and CNJ in the environment), and must exit 0. Background jobs run while
 * they do, as a worker would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import { PROJECT_ROOT } from '../src/config.ts';
import { createHarness } from './harness.ts';

const GUIDE = path.join(PROJECT_ROOT, 'docs', 'integracao.md');
const run = promisify(execFile);

function blocksOf(markdown: string): { lang: string; code: string; line: number }[] {
  const out: { lang: string; code: string; line: number }[] = [];
  for (const m of markdown.matchAll(/^```(sh|ts|python)\n([\s\S]*?)^```$/gm)) {
    out.push({ lang: m[1], code: m[2], line: markdown.slice(0, m.index).split('\n').length });
  }
  return out;
}

test('every example of docs/integracao.md runs against a live server and succeeds', async (t) => {
  const h = await createHarness({ env: { TRAMITA_SUMMARY_PROVIDER: 'extrativo' } });
  t.after(() => h.close());
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address() as { port: number };
  const acc = await h.createAccount({ credits: 10_000 });
  const now = h.sources.sandbox!.dataset.now();
  const sample = h.sources.sandbox!.dataset.cases.find((c) => c.filedAt <= now && c.court.datajudAlias && c.instances[0].movements.length > 3)!;
  const env = { ...process.env, TRAMITA_URL: `http://127.0.0.1:${address.port}`, TRAMITA_KEY: acc.headers['x-api-key'], CNJ: formatCnj(sample.numero) };
  const jobs = setInterval(() => void h.runJobs().catch(() => {}), 100);
  t.after(() => clearInterval(jobs));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-guia-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const blocks = blocksOf(fs.readFileSync(GUIDE, 'utf8'));
  assert.ok(
    blocks.filter((b) => b.lang === 'sh').length >= 5 && blocks.some((b) => b.lang === 'ts') && blocks.some((b) => b.lang === 'python'),
    'curl, TypeScript and Python examples',
  );
  for (const [i, b] of blocks.entries()) {
    const file = path.join(dir, `exemplo-${i}.${b.lang === 'ts' ? 'mts' : b.lang === 'python' ? 'py' : 'sh'}`);
    fs.writeFileSync(file, b.code);
    const [command, args] = b.lang === 'sh' ? ['bash', ['-euo', 'pipefail', file]] : b.lang === 'ts' ? [process.execPath, [file]] : ['python3', [file]];
    const result = await run(command, args, { env, timeout: 90_000, cwd: dir }).catch((err: { code?: number; stdout?: string; stderr?: string }) => err);
    assert.ok(!('code' in result) || !result.code, `docs/integracao.md line ${b.line} (${b.lang}) failed:\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  }
});
