import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { createHarness, json } from '../../../test/harness.ts';
import { testRoutes } from '../../../test/routes.ts';
import { backgroundFailureLevel, isDatabaseClosed, isPostgresOutage, isUniqueViolation, StorageUnavailable, storageOutageOf } from './outage.ts';

test("PostgreSQL outages are told from bad queries by SQLSTATE, socket code or pg's connection messages", () => {
  for (const code of ['57P01', '57P03', '08006', '08001', '53300', '25006', 'ECONNREFUSED', 'ECONNRESET'])
    assert.ok(isPostgresOutage({ code, message: 'x' }), code);
  assert.ok(isPostgresOutage(new Error('Connection terminated unexpectedly')));
  assert.ok(isPostgresOutage(new Error('timeout exceeded when trying to connect')));
  for (const code of ['23505', '42P01', '22P02', '40001']) assert.ok(!isPostgresOutage({ code, message: 'x' }), code);
  assert.ok(!isPostgresOutage(new TypeError('boom')));
});

test('an outage is recognised through causes; SQLite busy, full and I/O errors by their primary code', () => {
  assert.equal(storageOutageOf(new Error('wrapped', { cause: new StorageUnavailable('postgres', new Error('x')) })), 'postgres');
  assert.equal(storageOutageOf({ errcode: 13, errstr: 'database or disk is full' }), 'sqlite');
  assert.equal(storageOutageOf({ errcode: 5 | (2 << 8) }), 'sqlite', 'SQLITE_BUSY_SNAPSHOT');
  assert.equal(storageOutageOf({ errcode: 10 | (3 << 8) }), 'sqlite', 'SQLITE_IOERR_WRITE');
  assert.equal(storageOutageOf({ errcode: 19 }), undefined, 'a constraint is a bug or a race, not an outage');
  assert.ok(isUniqueViolation({ code: '23505' }) && isUniqueViolation({ errcode: 1555 }) && !isUniqueViolation({ errcode: 19 }));
});

test('SQLite locked by another process past busy_timeout: 503 STORAGE_UNAVAILABLE with Retry-After, nothing charged', {
  skip: process.env.DATABASE_URL ? 'SQLite only' : false,
}, async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const other = new DatabaseSync(h.services.database.location);
  other.exec('BEGIN IMMEDIATE');
  t.after(() => other.close());
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  other.exec('ROLLBACK');
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(json(res).error.code, 'STORAGE_UNAVAILABLE');
  assert.equal(res.headers['retry-after'], '5');
  const after = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers });
  assert.equal(json(after).data.saldoCentavos, 100);
});

test('a database closed by the shutdown and a storage outage are warnings for background work; anything else is an error', () => {
  assert.ok(isDatabaseClosed(new Error('driver has already been destroyed')));
  assert.equal(backgroundFailureLevel(new Error('driver has already been destroyed')), 'warn');
  assert.equal(backgroundFailureLevel(new StorageUnavailable('postgres', new Error('x'))), 'warn');
  assert.equal(backgroundFailureLevel(new TypeError('undefined is not a function')), 'error');
});
