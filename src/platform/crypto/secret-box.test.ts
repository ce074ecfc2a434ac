/**
 * SecretBox: sealing round trips, tamper and wrong-key detection, and the key file (created once with
 * mode 600, reused on the next start, agreed on by processes starting together).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SECRET_KEY_FILE, SecretBox } from './secret-box.ts';

const KEY = 'a'.repeat(64);

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tramita-secret-box-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('seal and unseal round-trip, with a fresh IV every time', () => {
  const box = SecretBox.fromKey(KEY);
  for (const plain of ['whsec_dHJhbWl0YS10ZXN0LXZlY3Rvci1rZXkh', '', 'token com acentuação ✓', 'x'.repeat(5000)]) {
    const sealed = box.seal(plain);
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes(plain) || plain === '');
    assert.equal(box.unseal(sealed), plain);
  }
  assert.notEqual(box.seal('same'), box.seal('same'));
});

test('unseal refuses a tampered value, a wrong key and malformed input', () => {
  const box = SecretBox.fromKey(KEY);
  const sealed = box.seal('bearer-token');
  const [version, iv, data] = sealed.split('.');
  const flipped = Buffer.from(data, 'base64url');
  flipped[0] ^= 1;
  assert.throws(() => box.unseal(`${version}.${iv}.${flipped.toString('base64url')}`), /altered or sealed with a different key/);
  const otherIv = Buffer.from(iv, 'base64url');
  otherIv[0] ^= 1;
  assert.throws(() => box.unseal(`${version}.${otherIv.toString('base64url')}.${data}`), /altered or sealed with a different key/);
  assert.throws(() => SecretBox.fromKey('b'.repeat(64)).unseal(sealed), /altered or sealed with a different key/);
  assert.throws(() => box.unseal('bearer-token'), /not a sealed value/);
  assert.throws(() => box.unseal(`v2.${iv}.${data}`), /not a sealed value/);
  assert.throws(() => box.unseal(`v1.${iv}.AAAA`), /truncated or malformed/);
  assert.throws(() => box.unseal(`v1.AAAA.${data}`), /truncated or malformed/);
});

test('fromKey takes exactly 64 hex characters', () => {
  assert.throws(() => SecretBox.fromKey('abc'), /64 hex characters/);
  assert.throws(() => SecretBox.fromKey('g'.repeat(64)), /64 hex characters/);
  assert.doesNotThrow(() => SecretBox.fromKey(randomBytes(32).toString('hex').toUpperCase()));
});

test('open uses TRAMITA_SECRET_KEY when given and writes no file', async (t) => {
  const dir = tempDir(t);
  const sealed = SecretBox.fromKey(KEY).seal('x');
  const box = await SecretBox.open({ secretKey: KEY, dataDir: dir });
  assert.equal(box.unseal(sealed), 'x');
  assert.throws(() => statSync(path.join(dir, SECRET_KEY_FILE)), /ENOENT/);
});

test('open creates <dataDir>/secret.key with mode 600 and reuses it on the next start', async (t) => {
  const dir = path.join(tempDir(t), 'nested', 'data');
  const first = await SecretBox.open({ secretKey: undefined, dataDir: dir });
  const file = path.join(dir, SECRET_KEY_FILE);
  assert.match(readFileSync(file, 'utf8'), /^[0-9a-f]{64}\n$/);
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
  const sealed = first.seal('survives a restart');
  const second = await SecretBox.open({ secretKey: undefined, dataDir: dir });
  assert.equal(second.unseal(sealed), 'survives a restart');
  assert.equal(SecretBox.openSync({ secretKey: '', dataDir: dir }).unseal(sealed), 'survives a restart');
});

test('open refuses a key file that does not hold a key', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, SECRET_KEY_FILE), 'not a key at all\n');
  await assert.rejects(SecretBox.open({ secretKey: undefined, dataDir: dir }), /does not hold a 64-hex-character key/);
});

test('processes starting together agree on one key', async (t) => {
  const dir = tempDir(t);
  const moduleUrl = new URL('./secret-box.ts', import.meta.url).href;
  const script = `
    const { SecretBox } = await import(${JSON.stringify(moduleUrl)});
    const box = await SecretBox.open({ secretKey: undefined, dataDir: ${JSON.stringify(dir)} });
    process.stdout.write(box.seal('shared'));`;
  const run = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
      });
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}`))));
    });
  const sealedByEach = await Promise.all(Array.from({ length: 6 }, run));
  const box = await SecretBox.open({ secretKey: undefined, dataDir: dir });
  for (const sealed of sealedByEach) assert.equal(box.unseal(sealed), 'shared');
});
