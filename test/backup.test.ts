/**
 * Backups that restore (issue 29, item 4), with real processes on loopback: a store with accounts,
 * keys (one revoked), credits, a monitor and a webhook whose receiver is down (so deliveries are
 * pending), backed up DURING a charged load, then served from the backup by another `tramita serve`.
 * Everything must be there and working: the keys (hash lookups), the balance equal to its ledger, the
 * monitor, the pending deliveries (delivered after the restore, signed with the secret the backup's key
 * unseals). SQLite: `tramita backup DIR`. PostgreSQL: the recipe of docs/operations.md ("Backups"),
 * pg_dump -Fc and pg_restore into a new database, with the data directory's secret.key.
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SecretBox } from '../src/platform/crypto/secret-box.ts';
import { createPgDatabase } from './harness.ts';
import { BIN, exec, freePort, NODE, startServe, storeFor, until, type Result, type Server, type Store } from './processes.ts';
import { receiver, signature, type Delivery } from './webhook-receiver.ts';

const ENV = {
  TRAMITA_SANDBOX: 'on',
  TRAMITA_SANDBOX_CASES: '300',
  TRAMITA_LOG_LEVEL: 'warn',
  TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
  // Failed deliveries are retried within seconds (the ladder divided by 1000) and stay pending for minutes (100 attempts).
  TRAMITA_DEV_TIME_SCALE: '1000',
  TRAMITA_WEBHOOK_MAX_ATTEMPTS: '100',
  TRAMITA_MONITOR_INTERVAL_MS: '1000',
  TRAMITA_RATE_LIMITS: 'lookup=100000/60s,account=100000/60s,monitor=100000/60s',
};
const LOAD_CALLERS = 4;

const describeRun = (args: string[], r: Result) => `tramita ${args.join(' ')} → exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

async function tramita(env: Record<string, string>, ...args: string[]): Promise<string> {
  const r = await exec(NODE, [BIN, ...args], env);
  assert.equal(r.code, 0, describeRun(args, r));
  return r.stdout;
}

async function call(base: string, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Every item of a listing, following `nextCursor`. */
async function all(base: string, key: string, url: string): Promise<any[]> {
  const items: any[] = [];
  for (let cursor: string | null = null; ; ) {
    const sep = url.includes('?') ? '&' : '?';
    const { status, body } = await call(base, key, 'GET', `${url}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(status, 200, JSON.stringify(body));
    items.push(...body.data.items);
    cursor = body.meta.pagination.nextCursor;
    if (!cursor) return items;
  }
}

/** Charged case lookups in a loop by several callers, until stopped. */
function chargedLoad(base: string, keys: string[], cnj: string) {
  let running = true;
  let charged = 0;
  const statuses: Record<number, number> = {};
  const callers = Array.from({ length: LOAD_CALLERS }, async (_, i) => {
    while (running) {
      const res = await fetch(`${base}/v1/processos/cnj/${cnj}`, { headers: { 'x-api-key': keys[i % keys.length]! } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 200) charged++;
    }
  });
  return {
    charged: () => charged,
    async stop() {
      running = false;
      await Promise.all(callers);
      return statuses;
    },
  };
}

/** What the first server holds before the backup: an account with three keys (one revoked), a monitor and a failing webhook. */
async function populate(env: Record<string, string>, base: string, server: Server, hook: string) {
  const [, key] = await server.waitFor(/API key\s+(\S+)/);
  const [, cnj] = await server.waitFor(/\/v1\/processos\/cnj\/(\d{20})/);
  const accountId = (JSON.parse(await tramita(env, 'accounts', 'list', '--json')) as { accounts: { id: string }[] }).accounts[0]!.id;
  const second = JSON.parse(await tramita(env, 'keys', 'create', accountId, '--json')) as { key: string };
  const revoked = JSON.parse(await tramita(env, 'keys', 'create', accountId, '--json')) as { id: string; key: string };
  await tramita(env, 'keys', 'revoke', revoked.id);
  await tramita(env, 'credits', 'add', accountId, '1000', '--note', 'before the backup');
  const webhook = await call(base, key, 'PUT', '/v1/conta/webhook', { url: hook });
  assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
  const secret = webhook.body.data.segredo as string;
  assert.ok(secret, 'the first configuration shows its secret');
  const monitor = await call(base, key, 'POST', '/v1/monitoramentos/processos', { numeroCnj: cnj });
  assert.equal(monitor.status, 201, JSON.stringify(monitor.body));
  const refresh = await call(base, key, 'POST', `/v1/processos/cnj/${cnj}/solicitar-atualizacao`);
  assert.equal(refresh.status, 200, JSON.stringify(refresh.body));
  return { key, second: second.key, revoked: revoked.key, cnj, secret, monitorId: monitor.body.data.id as string };
}

type Populated = Awaited<ReturnType<typeof populate>>;

/** Checks through HTTP that a restored server has the keys, a balance equal to its ledger, the monitor and the webhook. */
async function checkRestored(base: string, p: Populated, hook: string) {
  for (const k of [p.key, p.second]) assert.equal((await call(base, k, 'GET', '/v1/conta/saldo')).status, 200, 'the keys are found by their hash');
  assert.equal((await call(base, p.revoked, 'GET', '/v1/conta/saldo')).status, 401, 'the revoked key stays revoked');
  assert.equal((await call(base, `${p.key.slice(0, -4)}AAAA`, 'GET', '/v1/conta/saldo')).status, 401, 'a key that was never issued is refused');

  const balance = (await call(base, p.key, 'GET', '/v1/conta/saldo')).body.data.saldoCentavos as number;
  const ledger = await all(base, p.key, '/v1/conta/extrato');
  assert.equal(
    balance,
    ledger.reduce((sum, e) => sum + e.valorCentavos, 0),
    'balance = credits − debits of the restored ledger',
  );
  // The last debit committed left this balance. On PostgreSQL, charges of one account that ran at once are
  // listed by the time each began, which may differ from the order their row locks committed them in.
  assert.ok(
    ledger.slice(0, 2 * LOAD_CALLERS).some((e) => e.saldoAposCentavos === balance),
    'the latest entries include the one that left the balance',
  );

  const monitors = await all(base, p.key, '/v1/monitoramentos/processos');
  assert.deepEqual(
    monitors.map((m) => m.id),
    [p.monitorId],
    'the monitor is there',
  );

  const config = await call(base, p.key, 'GET', '/v1/conta/webhook');
  assert.equal(config.body.data.url, hook);
  assert.equal(config.body.data.segredoPrefixo, p.secret.slice(0, 12));
  return { balance, ledger };
}

/** Every delivery the receiver got is signed with the account's secret, over the bytes it got. */
function assertSigned(received: Delivery[], secret: string) {
  for (const d of received)
    assert.equal(d.headers['x-service-signature'], signature(secret, d.raw), `delivery ${d.headers['x-service-delivery-id']} is signed with the secret`);
}

/**
 * A served store, populated, its webhook receiver down (503) until `receiverUp()`. The server runs the
 * jobs itself on PostgreSQL too, so deliveries are attempted (and stay pending) without a `tramita worker`.
 */
async function populatedServer(t: TestContext) {
  let up = false;
  const hook = await receiver(() => (up ? 200 : 503));
  t.after(() => hook.close());
  const store = await storeFor(t);
  const env = { ...store.env, ...ENV };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServe(t, store, port, { ...ENV, TRAMITA_WORKERS: 'in-process' });
  const p = await populate(env, base, server, hook.url);
  return {
    hook,
    receiverUp: () => {
      up = true;
    },
    store,
    env,
    base,
    server,
    p,
  };
}

/** Waits until each of `ids` is ENTREGUE on the server at `base`. */
function delivered(base: string, key: string, ids: string[], what: string) {
  return until(what, 60_000, async () => {
    for (const id of ids) {
      const d = await call(base, key, 'GET', `/v1/conta/webhook/entregas/${id}`);
      if (d.body.data.status !== 'ENTREGUE') return undefined;
    }
    return true;
  });
}

test('tramita backup taken during a charged load restores into a directory another server serves as it is: keys, balance = ledger, monitor, pending ' +
  'deliveries, webhook secret', {
  timeout: 180_000,
}, async (t) => {
  if (process.env.DATABASE_URL) {
    t.skip('tramita backup copies the embedded SQLite store; on PostgreSQL the pg_dump recipe below is the backup');
    return;
  }
  const { hook, receiverUp, store, env, base, server: first, p } = await populatedServer(t);

  // A reader holds the checkpoint back, as a long report would: the load's commits stay in the WAL, where
  // a copy of tramita.db alone would miss them (and a copy of both files could tear).
  const reader = new DatabaseSync(path.join(store.dataDir, 'tramita.db'), { readOnly: true });
  t.after(() => reader.close());
  reader.exec('BEGIN');
  reader.prepare('SELECT COUNT(*) FROM accounts').get();

  const load = chargedLoad(base, [p.key, p.second], p.cnj);
  await until('charged answers and failed delivery attempts', 60_000, async () => (load.charged() >= 100 && hook.received.length >= 3 ? true : undefined));
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-backup-')), 'nightly');
  t.after(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
  const chargedBefore = load.charged();
  const backup = await exec(NODE, [BIN, 'backup', dir], env);
  const chargedAfter = load.charged();
  const statuses = await load.stop();
  reader.exec('COMMIT');
  assert.equal(backup.code, 0, describeRun(['backup', dir], backup));
  assert.match(backup.stdout, /integrity ok/);
  assert.match(backup.stdout, /secret\.key {2}the secrets key \(mode 600\), checked: it opens the store's sealed secrets/);
  assert.deepEqual(Object.keys(statuses), ['200'], `every lookup of the load was answered 200: ${JSON.stringify(statuses)}`);
  const finalLedger = await all(base, p.key, '/v1/conta/extrato');
  first.child.kill('SIGTERM');
  assert.deepEqual(await first.exited(15_000), { code: 0, signal: null });
  t.diagnostic(
    `load: ${chargedBefore} charged answers before the backup, ${chargedAfter - chargedBefore} while it ran, ${load.charged()} in all; ` +
      `backup: ${backup.stdout.split('\n')[0]}`,
  );

  assert.deepEqual(fs.readdirSync(dir).sort(), ['secret.key', 'tramita.db'], 'the database and its key, nothing else');
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  for (const f of ['secret.key', 'tramita.db']) assert.equal(fs.statSync(path.join(dir, f)).mode & 0o777, 0o600, `${f} is private`);
  assert.equal(fs.readFileSync(path.join(dir, 'secret.key'), 'utf8'), fs.readFileSync(path.join(store.dataDir, 'secret.key'), 'utf8'));

  // What the backup holds, read from the file itself: consistent (every balance is its ledger's sum,
  // every debit has its search log), taken during the load, and with deliveries still pending.
  const copy = new DatabaseSync(path.join(dir, 'tramita.db'), { readOnly: true });
  const unbalanced = copy
    .prepare(`SELECT a.id FROM accounts a WHERE a.balance_centavos <> (SELECT COALESCE(SUM(delta_centavos), 0) FROM ledger l WHERE l.account_id = a.id)`)
    .all();
  const orphanDebits = copy
    .prepare(
      `SELECT l.id FROM ledger l WHERE l.kind = 'debit' AND NOT EXISTS (SELECT 1 FROM search_logs s WHERE s.account_id = ` +
        `l.account_id AND s.id = l.search_log_id)`,
    )
    .all();
  const lookups = (copy.prepare(`SELECT COUNT(*) AS n FROM ledger WHERE query_type = 'processo.capa'`).get() as { n: number }).n;
  const pending = (copy.prepare(`SELECT id FROM webhook_deliveries WHERE status = 'PENDENTE' ORDER BY id`).all() as { id: string }[]).map((r) => r.id);
  copy.close();
  assert.deepEqual(unbalanced, [], 'every balance equals its ledger in the backup');
  assert.deepEqual(orphanDebits, [], 'every debit has its search log in the backup');
  const finalLookups = finalLedger.filter((e) => e.tipoConsulta === 'processo.capa').length;
  assert.ok(lookups >= chargedBefore && lookups <= finalLookups, `the backup is one moment of the load: ${chargedBefore} ≤ ${lookups} ≤ ${finalLookups}`);
  assert.ok(pending.length > 0, 'deliveries were pending when the backup was taken');
  t.diagnostic(
    `backup: ${lookups} charged lookups (${chargedBefore} answered before it started, ${finalLookups} at the end of the load), ${pending.length} ` +
      `deliveries pending`,
  );

  // A restore check without side effects (docs/operations.md): no background jobs, so nothing is delivered or checked.
  receiverUp();
  const fromBackup: Store = { ...store, dataDir: dir, env: { ...store.env, TRAMITA_DATA_DIR: dir } };
  const port2 = await freePort();
  const base2 = `http://127.0.0.1:${port2}`;
  const second = startServe(t, fromBackup, port2, { ...ENV, TRAMITA_WORKERS: 'off' });
  await second.waitFor(/Tramita at http/);
  assert.doesNotMatch(second.output(), /sandbox account was created/, 'the restored store has its accounts');
  const restored = await checkRestored(base2, p, hook.url);
  assert.equal(restored.ledger.filter((e) => e.tipoConsulta === 'processo.capa').length, lookups);
  const listed = (await all(base2, p.key, '/v1/conta/webhook/entregas?status=PENDENTE')).map((d) => d.id).sort();
  assert.deepEqual(listed, pending, 'the pending deliveries are there');
  const received = hook.received.length;
  const probe = await call(base2, p.key, 'POST', '/v1/conta/webhook/teste');
  assert.equal(probe.status, 200, JSON.stringify(probe.body));
  assert.equal(probe.body.data.entregue, true, 'the restored key unseals the webhook secret and a delivery is signed with it');
  second.child.kill('SIGTERM');
  assert.deepEqual(await second.exited(15_000), { code: 0, signal: null });

  // Served again with its background jobs: the deliveries pending in the backup reach the receiver, signed.
  const third = startServe(t, fromBackup, port2, ENV);
  await third.waitFor(/Tramita at http/);
  await delivered(base2, p.key, pending, 'every delivery pending in the backup to be delivered');
  const afterRestore = hook.received.slice(received);
  assertSigned(afterRestore, p.secret);
  const deliveredIds = new Set(afterRestore.map((d) => d.headers['x-service-delivery-id']));
  assert.ok(
    pending.every((id) => deliveredIds.has(id)),
    'each pending delivery reached the receiver after the restore',
  );
  third.child.kill('SIGTERM');
  assert.deepEqual(await third.exited(15_000), { code: 0, signal: null });
});

/** pg_dump / pg_restore: on PATH, else Debian's newest PostgreSQL. */
function pgTool(name: string): string | undefined {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return name;
  } catch {
    const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
    return versions.map((v) => `/usr/lib/postgresql/${v}/bin/${name}`).find((f) => fs.existsSync(f));
  }
}

test("PostgreSQL: the recipe of docs/operations.md (pg_dump -Fc during a charged load, pg_restore into a new database, the data directory's secret.key) " +
  'restores keys, balance = ledger, monitor, pending deliveries and the webhook secret', {
  timeout: 180_000,
}, async (t) => {
  const base0 = process.env.DATABASE_URL;
  const pgDump = pgTool('pg_dump');
  const pgRestore = pgTool('pg_restore');
  if (!base0 || !pgDump || !pgRestore) {
    t.skip(!base0 ? 'PostgreSQL only (DATABASE_URL unset): on SQLite `tramita backup` is the backup' : 'pg_dump or pg_restore not installed');
    return;
  }
  const { hook, receiverUp, store, env, base, server: first, p } = await populatedServer(t);
  const load = chargedLoad(base, [p.key, p.second], p.cnj);
  await until('charged answers and failed delivery attempts', 60_000, async () => (load.charged() >= 100 && hook.received.length >= 3 ? true : undefined));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-pgdump-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const started = performance.now();
  const dump = await exec(pgDump, ['-Fc', '-f', path.join(dir, 'tramita.dump'), store.databaseUrl!], env);
  assert.equal(dump.code, 0, dump.stderr);
  t.diagnostic(`pg_dump -Fc during the load: ${Math.round(performance.now() - started)} ms, ${fs.statSync(path.join(dir, 'tramita.dump')).size} bytes`);
  fs.copyFileSync(path.join(store.dataDir, 'secret.key'), path.join(dir, 'secret.key'));
  await load.stop();
  first.child.kill('SIGTERM');
  await first.exited(15_000);

  const target = await createPgDatabase(base0);
  t.after(() => target.drop());
  const restore = await exec(pgRestore, ['--no-owner', '--exit-on-error', '-d', target.url, path.join(dir, 'tramita.dump')], env);
  assert.equal(restore.code, 0, restore.stderr);
  const c = new (await import('pg')).default.Client({ connectionString: target.url });
  await c.connect();
  const pending = (await c.query(`SELECT id FROM webhook_deliveries WHERE status = 'PENDENTE' ORDER BY id`)).rows.map((r) => r.id as string);
  const unbalanced = (
    await c.query(`SELECT a.id FROM accounts a WHERE a.balance_centavos <> (SELECT COALESCE(SUM(delta_centavos), 0) FROM ledger l WHERE l.account_id = a.id)`)
  ).rows;
  await c.end();
  assert.deepEqual(unbalanced, [], 'every balance equals its ledger in the dump');
  assert.ok(pending.length > 0, 'deliveries were pending when the dump was taken');
  t.diagnostic(`dump: ${pending.length} deliveries pending`);

  receiverUp();
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.copyFileSync(path.join(dir, 'secret.key'), path.join(dataDir, 'secret.key'));
  const restored: Store = { ...store, dataDir, databaseUrl: target.url, env: { ...store.env, TRAMITA_DATA_DIR: dataDir, DATABASE_URL: target.url } };
  const port2 = await freePort();
  const base2 = `http://127.0.0.1:${port2}`;
  const received = hook.received.length;
  const second = startServe(t, restored, port2, { ...ENV, TRAMITA_WORKERS: 'in-process' });
  await second.waitFor(/Tramita at http/);
  await checkRestored(base2, p, hook.url);
  await delivered(base2, p.key, pending, 'every delivery pending in the dump to be delivered');
  assertSigned(hook.received.slice(received), p.secret);
  second.child.kill('SIGTERM');
  await second.exited(15_000);
});

describe('tramita backup refuses, in one line and exit 1, what would not give a whole backup', () => {
  /** `tramita backup …` as a real process that must exit with `code` (1: one line; 2: with the usage), no stack trace; its stderr. */
  async function refused(env: Record<string, string>, code: 1 | 2, ...args: string[]): Promise<string> {
    const r = await exec(NODE, [BIN, 'backup', ...args], env);
    assert.equal(r.code, code, describeRun(['backup', ...args], r));
    assert.doesNotMatch(r.stderr, /\n\s+at /, `a message, not a stack trace\n${describeRun(['backup', ...args], r)}`);
    assert.equal(r.stdout, '');
    if (code === 1) assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    return r.stderr;
  }
  const scratch = (t: TestContext) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-backup-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  test('with DATABASE_URL set: pg_dump is the backup, and the line names where the secrets key is', async (t) => {
    const store = await storeFor(t);
    const dir = path.join(scratch(t), 'b');
    const env = { ...store.env, DATABASE_URL: store.databaseUrl ?? 'postgres://tramita@127.0.0.1:1/never-connected' };
    const line = await refused(env, 1, dir);
    assert.match(
      line,
      /DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc and keep the secrets key \(.*secret\.key\) with the dump; see docs\/operations\.md/,
    );
    assert.equal(fs.existsSync(dir), false, 'nothing written');
    assert.match(await refused({ ...env, TRAMITA_SECRET_KEY: 'ab'.repeat(32) }, 1, dir), /keep the secrets key \(TRAMITA_SECRET_KEY\)/);
  });

  test('a directory that is not empty or is a file, a data directory without a store, no DIR at all (exit 2, with the usage)', async (t) => {
    if (process.env.DATABASE_URL) {
      t.skip('SQLite only: with DATABASE_URL set every backup is refused first (test above)');
      return;
    }
    const store = await storeFor(t);
    await tramita(store.env, 'accounts', 'create', '--name', 'Backup Ltda', '--credits', '5');
    const here = scratch(t);
    fs.writeFileSync(path.join(here, 'old.txt'), 'kept');
    assert.match(await refused(store.env, 1, here), /cannot back up into .*: it exists and is not empty \(1 entries\)/);
    assert.deepEqual(fs.readdirSync(here), ['old.txt'], 'left untouched');
    assert.match(await refused(store.env, 1, path.join(here, 'old.txt')), /cannot back up into .*old\.txt: it is a file/);
    assert.match(
      await refused({ ...store.env, TRAMITA_DATA_DIR: path.join(here, 'nothing') }, 1, path.join(here, 'b')),
      /no database at .*nothing\/tramita\.db: set TRAMITA_DATA_DIR/,
    );
    assert.equal(fs.existsSync(path.join(here, 'b')), false);
    assert.match(await refused(store.env, 2), /expected DIR, a new or empty directory for the backup\n\nUsage:/);
  });

  test("a secrets key that does not open the store's sealed secrets, or none at all: refused, and no directory is left behind", async (t) => {
    if (process.env.DATABASE_URL) {
      t.skip('SQLite only: with DATABASE_URL set every backup is refused first (test above)');
      return;
    }
    const store = await storeFor(t);
    const created = JSON.parse(await tramita(store.env, 'accounts', 'create', '--name', 'Chave Ltda', '--json')) as { account: { id: string } };
    const db = new DatabaseSync(path.join(store.dataDir, 'tramita.db'));
    const now = new Date().toISOString();
    const sealed = SecretBox.openSync({ secretKey: undefined, dataDir: store.dataDir }).seal('whsec_the-account-secret');
    db.prepare(`INSERT INTO webhook_configs (account_id, secret_sealed, secret_prefix, created_at, updated_at) VALUES (?, ?, 'whsec_the-ac', ?, ?)`).run(
      created.account.id,
      sealed,
      now,
      now,
    );
    db.close();

    const dir = path.join(scratch(t), 'b');
    const ok = JSON.parse(await tramita(store.env, 'backup', dir, '--json'));
    assert.equal(ok.secretKey.opensSealedSecrets, true, 'the right key is checked against a sealed secret');
    assert.equal(ok.database.integrity, 'ok');

    fs.writeFileSync(path.join(store.dataDir, 'secret.key'), `${'cd'.repeat(32)}\n`);
    assert.match(await refused(store.env, 1, `${dir}2`), /the secrets key \(.*secret\.key\) does not open the store's sealed secrets/);
    assert.equal(fs.existsSync(`${dir}2`), false, 'the half-made backup is removed');
    fs.rmSync(path.join(store.dataDir, 'secret.key'));
    const empty = path.join(scratch(t), 'empty');
    fs.mkdirSync(empty);
    assert.match(await refused(store.env, 1, empty), /the store holds sealed secrets but there is no secrets key at .*secret\.key/);
    assert.deepEqual(fs.readdirSync(empty), [], 'a directory given empty is left empty');
  });
});
