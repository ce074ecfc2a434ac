/**
 * The durable jobs table, driven through JobQueue and Worker with a ManualClock so every time is exact
 * (graphile-worker style): transactional enqueue, dedupe keys, due-only claims, disjoint concurrent
 * claims, leases that lapse when a worker dies, the retry schedule, recurring jobs, graceful hand-back,
 * and the maintenance job that interrupts pending operations whose process died.
 * Runs on SQLite by default and on PostgreSQL when DATABASE_URL is set (test/harness.ts freshDatabase).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase } from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { addMs, iso, ManualClock } from '../clock.ts';
import { migrate } from '../db/database.ts';
import { MAINTENANCE, MAINTENANCE_JOB } from '../maintenance.ts';
import { ensureRecurring } from './recurring.ts';
import { buildCapabilities, jobHandlers } from '../../capabilities/index.ts';
import { createLogger } from '../observability/logger.ts';
import { telemetry } from '../observability/telemetry.ts';
import pino, { type Logger } from 'pino';
import { createServices, type Services } from '../services.ts';
import type { Job, JobQueue } from './queue.ts';
import { defaultRetryDelayMs, Worker, type JobHandler } from './worker.ts';

const LEASE_MS = 1_000;
const START = '2026-03-02T12:00:00.000Z';

interface Setup {
  clock: ManualClock;
  log: Logger;
  services: Services;
  queue: JobQueue;
  worker(handlers: JobHandler[], concurrency?: number): Worker;
}

/** A fresh migrated database with services on a ManualClock; dropped when the test ends. */
async function setup(t: TestContext): Promise<Setup> {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  await migrate(fresh.database);
  const clock = new ManualClock(START);
  const config = loadConfig({ TRAMITA_LOG_LEVEL: 'silent' }, { ...fresh.config, jobLeaseMs: LEASE_MS });
  const log = createLogger('silent');
  const services = createServices(config, fresh.database, log, { clock });
  return {
    clock,
    log,
    services,
    queue: services.jobs,
    worker: (handlers, concurrency = 4) => new Worker({ queue: services.jobs, handlers, clock, log, concurrency, leaseMs: LEASE_MS, pollMs: 10 }),
  };
}

async function jobRow(s: Services, id: string): Promise<Job> {
  const job = await s.jobs.get(id);
  assert.ok(job, `job ${id} exists`);
  return job;
}

async function jobCount(s: Services, where: { kind?: string } = {}): Promise<number> {
  const rows = await s.db
    .selectFrom('jobs')
    .select('id')
    .$if(where.kind !== undefined, (q) => q.where('kind', '=', where.kind!))
    .execute();
  return rows.length;
}

const at = (clock: ManualClock, ms: number): string => iso(addMs(clock.now(), ms));

/** A handler that records the payloads it ran and completes. */
function recorder(kind: string): JobHandler & { runs: unknown[] } {
  const runs: unknown[] = [];
  return {
    kind,
    runs,
    async run(payload) {
      runs.push(payload);
    },
  };
}

test('a job enqueued inside a transaction that rolls back does not exist; one that commits does', async (t) => {
  const { services: s, queue } = await setup(t);
  await assert.rejects(
    s.db.transaction().execute(async (trx) => {
      const id = await queue.enqueue({ kind: 'test.outbox', payload: { n: 1 } }, trx);
      assert.ok(id, 'enqueue inside the transaction returns an id');
      throw new Error('business write failed');
    }),
    /business write failed/,
  );
  assert.equal(await jobCount(s), 0, 'the rolled-back job is gone with its transaction');

  const id = await s.db.transaction().execute((trx) => queue.enqueue({ kind: 'test.outbox', payload: { n: 2 } }, trx));
  assert.ok(id);
  const job = await jobRow(s, id);
  assert.equal(job.status, 'pending');
  assert.deepEqual(JSON.parse(job.payload), { n: 2 });
  assert.equal(await jobCount(s), 1);
});

test('a dedupe key allows one live job; once that job is done the key can be enqueued again', async (t) => {
  const { services: s, queue, worker } = await setup(t);
  const first = await queue.enqueue({ kind: 'test.dedupe', payload: 1, dedupeKey: 'refresh:123' });
  assert.ok(first);
  assert.equal(await queue.enqueue({ kind: 'test.dedupe', payload: 2, dedupeKey: 'refresh:123' }), undefined, 'second enqueue is a no-op');
  assert.equal(await jobCount(s), 1);

  // A different key is a different job.
  const other = await queue.enqueue({ kind: 'test.dedupe', payload: 3, dedupeKey: 'refresh:456' });
  assert.ok(other);

  const handler = recorder('test.dedupe');
  const w = worker([handler]);
  assert.equal(await w.runDue(), 2);
  assert.deepEqual(handler.runs.sort(), [1, 3], 'the duplicate never ran');
  assert.equal((await jobRow(s, first)).status, 'done');

  const again = await queue.enqueue({ kind: 'test.dedupe', payload: 4, dedupeKey: 'refresh:123' });
  assert.ok(again, 'the key is free once its job is done');
  assert.notEqual(again, first);
  assert.equal((await jobRow(s, again)).status, 'pending');
  assert.equal(await queue.enqueue({ kind: 'test.dedupe', payload: 5, dedupeKey: 'refresh:123' }), undefined, 'and live again');
});

test('claim returns due jobs only: a job scheduled in the future is claimed once the clock reaches run_at', async (t) => {
  const { clock, queue } = await setup(t);
  const now = await queue.enqueue({ kind: 'test.due', payload: 'now' });
  const later = await queue.enqueue({ kind: 'test.due', payload: 'later', runAt: addMs(clock.now(), 5_000) });
  assert.ok(now && later);

  const first = await queue.claim('wrk_a', 10, LEASE_MS, ['test.due']);
  assert.deepEqual(
    first.map((j) => j.id),
    [now],
  );
  await queue.complete(now, 'wrk_a');

  clock.advance(4_999);
  assert.deepEqual(await queue.claim('wrk_a', 10, LEASE_MS, ['test.due']), [], 'not yet due 1 ms before run_at');

  clock.advance(1);
  const due = await queue.claim('wrk_a', 10, LEASE_MS, ['test.due']);
  assert.deepEqual(
    due.map((j) => j.id),
    [later],
    'due exactly at run_at',
  );
  assert.equal(due[0].status, 'running');
  assert.equal(due[0].attempts, 1);
  assert.equal(due[0].locked_by, 'wrk_a');
  assert.equal(due[0].locked_until, at(clock, LEASE_MS));
});

test('two concurrent claims never return the same job', async (t) => {
  const { queue } = await setup(t);
  for (let round = 0; round < 10; round++) {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await queue.enqueue({ kind: 'test.concurrent', payload: { round, i } }))!);
    assert.equal(ids.size, 20);

    const [a, b] = await Promise.all([
      queue.claim(`wrk_a${round}`, 10, LEASE_MS, ['test.concurrent']),
      queue.claim(`wrk_b${round}`, 10, LEASE_MS, ['test.concurrent']),
    ]);
    assert.ok(a.length <= 10 && b.length <= 10, `each claim respects its limit (${a.length}, ${b.length})`);
    const aIds = new Set(a.map((j) => j.id));
    const overlap = b.filter((j) => aIds.has(j.id)).map((j) => j.id);
    assert.deepEqual(overlap, [], `round ${round}: no job claimed twice`);
    const claimed = [...a, ...b];
    assert.equal(claimed.length, 20, `round ${round}: together they claim all 20`);
    assert.ok(claimed.every((j) => ids.has(j.id) && j.attempts === 1));
    for (const j of a) assert.equal(j.locked_by, `wrk_a${round}`);
    for (const j of b) assert.equal(j.locked_by, `wrk_b${round}`);

    for (const j of a) await queue.complete(j.id, `wrk_a${round}`);
    for (const j of b) await queue.complete(j.id, `wrk_b${round}`);
  }
  assert.deepEqual(await queue.counts(), { done: 200 });
});

test('a job whose worker died is claimed by another worker only after its lease lapses, with attempts counting up', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  const id = (await queue.enqueue({ kind: 'test.lease', payload: 'x' }))!;

  const [claimed] = await queue.claim('wrk_dead', 10, LEASE_MS, ['test.lease']);
  assert.equal(claimed.id, id);
  assert.equal(claimed.attempts, 1);
  // wrk_dead never completes: it died.

  const handler = recorder('test.lease');
  const b = worker([handler]);
  assert.equal(await b.runDue(), 0, 'leased: not claimable');
  clock.advance(LEASE_MS);
  assert.equal(await b.runDue(), 0, 'still leased at exactly locked_until');
  clock.advance(1);
  assert.equal(await b.runDue(), 1, 'claimed once the lease lapsed');
  assert.deepEqual(handler.runs, ['x']);

  const job = await jobRow(s, id);
  assert.equal(job.status, 'done');
  assert.equal(job.attempts, 2);
  assert.equal(job.locked_by, null);
  assert.equal(job.locked_until, null);

  // The dead worker waking up cannot settle a job it no longer holds.
  await queue.fail(id, 'wrk_dead', 'zombie');
  assert.equal((await jobRow(s, id)).status, 'done');
});

test('a job whose lease lapsed on every allowed attempt is failed instead of run again', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  const id = (await queue.enqueue({ kind: 'test.killer', payload: null, maxAttempts: 2 }))!;
  const handler = recorder('test.killer');
  const w = worker([handler]);
  for (const dead of ['wrk_dead1', 'wrk_dead2']) {
    assert.equal((await queue.claim(dead, 10, LEASE_MS, ['test.killer'])).length, 1);
    clock.advance(LEASE_MS + 1);
  }
  assert.equal(await w.runDue(), 1);
  const job = await jobRow(s, id);
  assert.equal(job.status, 'failed');
  assert.equal(job.attempts, 3);
  assert.equal(job.last_error, 'lease lapsed on every attempt');
  assert.deepEqual(handler.runs, [], 'the handler that killed two workers is not run a third time');
});

test('a failing job is retried at exactly now + retryDelayMs(attempt), then failed with last_error after max_attempts', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  const delays: number[] = [];
  const handler: JobHandler = {
    kind: 'test.flaky',
    async run(_payload, { job }) {
      clock.advance(250); // the attempt takes time: the delay counts from the failure
      throw new Error(`boom #${job.attempts}`);
    },
    retryDelayMs(attempt) {
      delays.push(attempt);
      return attempt * 7_000;
    },
  };
  const w = worker([handler]);
  const id = (await queue.enqueue({ kind: 'test.flaky', payload: null, maxAttempts: 3 }))!;

  assert.equal(await w.runDue(), 1);
  let job = await jobRow(s, id);
  assert.equal(job.status, 'pending');
  assert.equal(job.attempts, 1);
  assert.equal(job.run_at, '2026-03-02T12:00:07.250Z');
  assert.equal(job.run_at, at(clock, 7_000));
  assert.equal(job.last_error, 'boom #1');
  assert.equal(job.locked_by, null);

  clock.advance(6_999);
  assert.equal(await w.runDue(), 0, 'not before the retry time');
  clock.advance(1);
  assert.equal(await w.runDue(), 1);
  job = await jobRow(s, id);
  assert.equal(job.status, 'pending');
  assert.equal(job.attempts, 2);
  assert.equal(job.run_at, at(clock, 14_000));
  assert.equal(job.run_at, '2026-03-02T12:00:21.500Z');
  assert.equal(job.last_error, 'boom #2');

  clock.set(job.run_at);
  assert.equal(await w.runDue(), 1);
  job = await jobRow(s, id);
  assert.equal(job.status, 'failed', 'failed for good after max_attempts');
  assert.equal(job.attempts, 3);
  assert.equal(job.last_error, 'boom #3');
  assert.equal(job.locked_by, null);
  assert.deepEqual(delays, [1, 2], 'no retry delay is asked for the last attempt');

  clock.advance(3_600_000);
  assert.equal(await w.runDue(), 0, 'a failed job is never claimed again');
});

test('without retryDelayMs a failing job follows the default backoff', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  const w = worker([
    {
      kind: 'test.default',
      async run() {
        throw new Error('nope');
      },
    },
  ]);
  const id = (await queue.enqueue({ kind: 'test.default', payload: null }))!;
  await w.runDue();
  const job = await jobRow(s, id);
  assert.equal(job.run_at, at(clock, defaultRetryDelayMs(1)));
  assert.equal(defaultRetryDelayMs(1), 20_000);
});

test('a recurring handler returning a Date is rescheduled at that date with its attempts reset', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  let calls = 0;
  const w = worker([
    {
      kind: 'test.recurring',
      retryDelayMs: () => 1_000,
      async run(_payload, ctx) {
        calls++;
        if (calls === 1) throw new Error('transient');
        return addMs(ctx.clock.now(), 60_000);
      },
    },
  ]);
  const id = (await queue.enqueue({ kind: 'test.recurring', payload: null }))!;

  await w.runDue(); // attempt 1 fails
  assert.equal((await jobRow(s, id)).attempts, 1);
  clock.advance(1_000);
  await w.runDue(); // attempt 2 succeeds and asks to run again in a minute
  let job = await jobRow(s, id);
  assert.equal(job.status, 'pending');
  assert.equal(job.attempts, 0, 'attempts reset');
  assert.equal(job.run_at, at(clock, 60_000));
  assert.equal(job.last_error, null);
  assert.equal(job.locked_by, null);

  clock.advance(59_999);
  assert.equal(await w.runDue(), 0);
  clock.advance(1);
  assert.equal(await w.runDue(), 1);
  job = await jobRow(s, id);
  assert.equal(job.status, 'pending');
  assert.equal(job.attempts, 0);
  assert.equal(job.run_at, at(clock, 60_000));
  assert.equal(calls, 3);
});

test('a worker claims only the kinds it has handlers for: a job of another kind stays queued until a worker that knows it runs it', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  // A rolling deploy: the new code enqueues a kind the old worker has no handler for.
  const unknown = (await queue.enqueue({ kind: 'test.new-kind', payload: 'new' }))!;
  const known = (await queue.enqueue({ kind: 'test.old-kind', payload: 'old' }))!;
  const old = worker([recorder('test.old-kind')]);
  assert.equal(await old.runDue(), 1, 'the old worker runs only its own kind');
  assert.equal((await jobRow(s, known)).status, 'done');
  clock.advance(3_600_000);
  assert.equal(await old.runDue(), 0, 'and never claims the other, however long it waits');
  const waiting = await jobRow(s, unknown);
  assert.equal(waiting.status, 'pending');
  assert.equal(waiting.attempts, 0, 'not an attempt spent');
  assert.equal(waiting.last_error, null);

  const handler = recorder('test.new-kind');
  const updated = worker([handler]);
  assert.equal(await updated.runDue(), 1);
  assert.deepEqual(handler.runs, ['new']);
  assert.equal((await jobRow(s, unknown)).status, 'done');
});

test('a kind filter narrows a worker to some of its handlers', async (t) => {
  const { services: s, clock, log } = await setup(t);
  const [a, b] = [recorder('test.a'), recorder('test.b')];
  await s.jobs.enqueue({ kind: 'test.a', payload: 'a' });
  await s.jobs.enqueue({ kind: 'test.b', payload: 'b' });
  const onlyB = new Worker({ queue: s.jobs, handlers: [a, b], clock, log, concurrency: 4, leaseMs: LEASE_MS, pollMs: 10, kinds: { except: ['test.a'] } });
  assert.equal(await onlyB.runDue(), 1);
  assert.deepEqual([a.runs, b.runs], [[], ['b']]);
});

test('a failed lease renewal is counted and logged as a warning, and renewal goes on', async (t) => {
  const { services: s, clock } = await setup(t);
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let renewals = 0;
  s.jobs.renewHeld = async () => {
    renewals++;
    throw new Error('connection terminated');
  };
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await s.jobs.enqueue({ kind: 'test.slow', payload: null });
  const w = new Worker({ queue: s.jobs, handlers: [{ kind: 'test.slow', run: () => held }], clock, log, concurrency: 1, leaseMs: 300, pollMs: 10 });
  const before = await failures();
  const running = w.runDue();
  await until(() => renewals >= 2);
  release();
  await running;
  assert.ok((await failures()) - before >= 2, 'each failure counted');
  const warned = lines.filter((l) => l.msg.startsWith('job lease renewal failed'));
  assert.ok(warned.length >= 2 && warned.every((l) => l.level === 40), 'each one a warn line');
});

/** The lease-renewal failures counted so far in this process. */
async function failures(): Promise<number> {
  return (await telemetry.jobLeaseRenewalFailures.get()).values[0]?.value ?? 0;
}

/** Waits (polling every 10 ms) until `ready` holds: an event that comes from a timer of the code under test. */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 10) {
    if (waited > 10_000) throw new Error('gave up waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('Worker.stop() hands back jobs still running so another worker takes them at once', async (t) => {
  const { services: s, clock, queue, worker } = await setup(t);
  let started!: () => void;
  const isRunning = new Promise<void>((r) => {
    started = r;
  });
  let finish!: () => void;
  const blocked = new Promise<void>((r) => {
    finish = r;
  });
  t.after(() => finish());
  const a = worker([
    {
      kind: 'test.slow',
      async run() {
        started();
        await blocked;
      },
    },
  ]);
  const id = (await queue.enqueue({ kind: 'test.slow', payload: null }))!;

  const aRun = a.runDue();
  await isRunning;
  assert.equal((await jobRow(s, id)).locked_by, a.id);

  await a.stop(20);
  let job = await jobRow(s, id);
  assert.equal(job.status, 'pending', 'handed back');
  assert.equal(job.locked_by, null);
  assert.equal(job.locked_until, null);
  assert.equal(job.run_at, iso(clock.now()), 'due at once');

  const handler = recorder('test.slow');
  const b = worker([handler]);
  assert.equal(await b.runDue(), 1, 'taken without waiting for the lease (the clock did not move)');
  job = await jobRow(s, id);
  assert.equal(job.status, 'done');
  assert.equal(job.attempts, 2);

  // The old handler finishing late cannot touch a job its worker gave away.
  finish();
  await aRun;
  job = await jobRow(s, id);
  assert.equal(job.status, 'done');
  assert.equal(job.locked_by, null);
});

test('maintenance interrupts a pending operation whose lease lapsed with a stored 503 OPERATION_INTERRUPTED', async (t) => {
  const { services: s, clock, worker } = await setup(t);
  const account = await s.accounts.create({ name: 'Conta', plan: 'padrao' });
  const requestId = 'req_orphan0000000000001';
  await s.asyncRequests.open({ id: requestId, accountId: account.id, method: 'GET', path: '/v1/processos/cnj/x' });
  const live = 'req_alive00000000000001';

  await ensureRecurring(s.jobs, [MAINTENANCE]);
  await ensureRecurring(s.jobs, [MAINTENANCE]);
  assert.equal(await jobCount(s, { kind: MAINTENANCE_JOB }), 1, 'one maintenance job however often it is scheduled');
  const w = worker(jobHandlers(buildCapabilities(s)));

  // Within the lease: the operation's process may still be running it.
  clock.advance(LEASE_MS);
  assert.equal(await w.runDue(), 1);
  let row = await s.db.selectFrom('async_requests').selectAll().where('id', '=', requestId).executeTakeFirstOrThrow();
  assert.equal(row.status, 'running', 'not interrupted at exactly lease_until');

  // Next maintenance run, a minute later: the lease lapsed long ago (the process died).
  clock.advance(60_000);
  await s.asyncRequests.open({ id: live, accountId: account.id, method: 'GET', path: '/v1/processos/cnj/y' });
  assert.equal(await w.runDue(), 1);
  row = await s.db.selectFrom('async_requests').selectAll().where('id', '=', requestId).executeTakeFirstOrThrow();
  assert.equal(row.status, 'done');
  assert.equal(row.response_status, 503);
  assert.equal(row.completed_at, iso(clock.now()));
  assert.equal(row.lease_until, null);
  const body = JSON.parse(row.response_body!);
  assert.equal(body.error.code, 'OPERATION_INTERRUPTED');
  assert.equal(body.meta.requestId, requestId);
  assert.equal((await s.asyncRequests.find(requestId, account.id))?.status, 'done', 'the poller reads the final answer');

  const fresh = await s.db.selectFrom('async_requests').select('status').where('id', '=', live).executeTakeFirstOrThrow();
  assert.equal(fresh.status, 'running', 'an operation with a live lease is left alone');

  const [maintenance] = await s.db.selectFrom('jobs').selectAll().where('kind', '=', MAINTENANCE_JOB).execute();
  assert.equal(maintenance.status, 'pending', 'maintenance recurs');
  assert.equal(maintenance.run_at, at(clock, 60_000));
  assert.equal(Number(maintenance.attempts), 0);
});

test("every capability's recurring job has its handler among that capability's jobs (a kind without one would wait forever)", async (t) => {
  const { services: s } = await setup(t);
  for (const c of buildCapabilities(s).all) {
    const handled = new Set(c.jobs.map((h) => h.kind));
    for (const r of c.schedules) assert.ok(handled.has(r.kind), `${c.name}: ${r.kind}`);
  }
});
