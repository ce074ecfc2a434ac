/**
 * An auxiliary source never fails the main work (issue 43, item 5; DESIGN.md §5): a refresh or a
 * case-monitor check that got DataJud's movements stores them and announces them (`nova_movimentacao`
 * in the account's feed) even when DJEN, asked for the parties' fallback, answers 403 (the geoblock),
 * 5xx or nothing at all. The failure is counted (`tramita_auxiliary_failures_total`), named in one warn
 * line (court, source, step, reason; no personal data) and retried by a job of its own, which brings
 * the parties once DJEN is back. Cases of courts with neither a consultation nor the provider, so
 * their parties come from DJEN.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';
import type { FaultRequest } from '../src/sandbox/faults.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';
import { createHarness, json, monitorTestEnv, type TestAccount } from './harness.ts';
import { caseFeed, monitorCase } from './case-feed.ts';

const HOUR = 3_600_000;
const clock = new ManualClock('2026-01-01T00:00:00.000Z');
const h = await createHarness({
  clock,
  captureLogs: true,
  env: monitorTestEnv(HOUR, {
    TRAMITA_PORTAL_TRIBUNAIS: 'TJSP',
    TRAMITA_FEED_SETTLE_MS: '0',
    DJEN_TIMEOUT_MS: '200',
    // DJEN's own backoff between attempts (2 s, 4 s) a thousand times shorter.
    TRAMITA_DEV_TIME_SCALE: '1000',
  }),
});
after(() => h.close());
const sandbox = h.sources.sandbox!;
const now = () => clock.now().getTime();

const FAILURES: Record<string, FaultRequest> = {
  'a 403 geoblock': { upstream: 'djen', status: 403 },
  'a 5xx': { upstream: 'djen', status: 503 },
  'a timeout': { upstream: 'djen', hang: true },
};

/** When the case's next movement not yet visible happens (Infinity when none). */
const nextMovementAt = (c: SandboxCase) => Math.min(...c.instances.flatMap((i) => i.movements.filter((m) => m.at > now()).map((m) => m.at)));
const used = new Set<string>();
/**
 * The unused case whose next movement comes first (so the clock moves as little as possible), of a
 * court that is neither the provider's (TJSP) nor read through a consultation (none is enabled here):
 * its parties come from DJEN.
 */
function caseWithNews(): SandboxCase {
  const candidates = sandbox.dataset.cases.filter(
    (x) => !used.has(x.numero) && x.filedAt <= now() && x.court.datajudAlias && x.court.sigla !== 'TJSP' && nextMovementAt(x) < now() + 20 * 24 * HOUR,
  );
  const c = candidates.sort((a, b) => nextMovementAt(a) - nextMovementAt(b))[0];
  assert.ok(c, 'a sandbox case whose parties come from DJEN, with a movement due within 20 days');
  used.add(c.numero);
  return c;
}

/** A whole cycle later: the cycle job (every minute here) has run and checked the new monitor. */
async function firstCheck(): Promise<void> {
  clock.advance(60_000);
  await h.runJobs();
}

const monitor = (acc: TestAccount, numero: string, frequencia: string) => monitorCase(h, acc, numero, frequencia);

/** Removes the monitor, so later tests' cycles do not check its case. */
async function stop(acc: TestAccount, id: string): Promise<void> {
  const res = await h.inject({ method: 'DELETE', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
}

const feed = (acc: TestAccount, numero: string) => caseFeed(h, acc, numero);

async function partyNames(acc: TestAccount, numero: string): Promise<string[]> {
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return ((json(res).data.partes ?? []) as { nome: string }[]).map((p) => p.nome);
}

async function movementIds(acc: TestAccount, numero: string): Promise<string[]> {
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}/movimentacoes?limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return (json(res).data.movimentacoes as { id: string }[]).map((m) => m.id);
}

async function auxiliaryFailures(): Promise<number> {
  const metric = await telemetry.auxiliaryFailures.get();
  return metric.values.filter((v) => v.labels.source === 'djen' && v.labels.step === 'partes').reduce((n, v) => n + v.value, 0);
}

/** The warn lines about the parties' auxiliary failure logged since `from`; no line may quote the case's parties. */
function auxiliaryWarnings(from: number, c: SandboxCase): Record<string, unknown>[] {
  const lines = h.logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const l of lines) for (const p of c.partes) assert.ok(!JSON.stringify(l).includes(p.person.nome), 'no party name in the logs');
  return lines.filter((l) => String(l.msg ?? '').startsWith('auxiliary source failed') && l.step === 'partes');
}

for (const [name, fault] of Object.entries(FAILURES)) {
  test(`a refresh with DJEN failing (${name}) stores DataJud's new movement and announces it; the parties follow once DJEN is back`, async () => {
    const acc = await h.createAccount({ credits: 10_000 });
    const c = caseWithNews();
    // A monthly monitor: the account hears the case's news, and its next check is a month away.
    const id = await monitor(acc, c.numero, 'MENSAL');
    await firstCheck();
    const known = await movementIds(acc, c.numero);
    assert.ok(known.length > 0);
    sandbox.djen.publish({ numeroProcesso: c.numero, destinatarios: [{ nome: 'PARTE NOVA FICTICIA DA ATUALIZACAO', polo: 'P' }] });
    clock.advance(nextMovementAt(c) - now() + HOUR);

    const logsFrom = h.logs.length;
    const failuresBefore = await auxiliaryFailures();
    sandbox.faults.set(fault);
    try {
      const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
      assert.equal(asked.statusCode, 200, asked.body);
      await h.runJobs();
    } finally {
      sandbox.faults.reset();
    }
    const status = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/status-atualizacao`, headers: acc.headers })).data;
    assert.equal(status.status, 'CONCLUIDA', JSON.stringify(status));
    assert.ok(status.novasMovimentacoes >= 1);
    const stored = await movementIds(acc, c.numero);
    assert.equal(stored.length, known.length + status.novasMovimentacoes, 'the new movements are stored');
    const news = (await feed(acc, c.numero)).filter((e) => e.event === 'nova_movimentacao');
    assert.equal(news.length, 1, 'nova_movimentacao reached the account');
    assert.equal(news[0]!.data.movimentacoes.length, status.novasMovimentacoes);
    assert.ok(!(await partyNames(acc, c.numero)).includes('PARTE NOVA FICTICIA DA ATUALIZACAO'), 'DJEN failed: the parties wait');
    assert.equal((await auxiliaryFailures()) - failuresBefore, 1, 'one auxiliary failure counted');
    const warned = auxiliaryWarnings(logsFrom, c);
    assert.equal(warned.length, 1, 'one warn line');
    assert.deepEqual([warned[0]!.level, warned[0]!.tribunal, warned[0]!.source, warned[0]!.step], [40, c.court.sigla, 'djen', 'partes']);
    assert.ok(typeof warned[0]!.failure === 'string');

    // DJEN is back: the parties' own job, due after its delay, brings the new addressee (and nothing is announced twice).
    clock.advance(60_000);
    await h.runJobs();
    assert.ok((await partyNames(acc, c.numero)).includes('PARTE NOVA FICTICIA DA ATUALIZACAO'));
    assert.equal((await feed(acc, c.numero)).filter((e) => e.event === 'nova_movimentacao').length, 1);
    await stop(acc, id);
  });

  test(`a monitor check with DJEN failing (${name}) stores DataJud's new movement and announces it; the parties follow once DJEN is back`, async () => {
    const acc = await h.createAccount({ credits: 10_000 });
    const c = caseWithNews();
    const id = await monitor(acc, c.numero, 'DIARIA');
    await firstCheck();
    const known = await movementIds(acc, c.numero);
    sandbox.djen.publish({ numeroProcesso: c.numero, destinatarios: [{ nome: 'PARTE NOVA FICTICIA DO MONITOR', polo: 'A' }] });

    const logsFrom = h.logs.length;
    const failuresBefore = await auxiliaryFailures();
    sandbox.faults.set(fault);
    try {
      clock.advance(Math.max(nextMovementAt(c) - now(), 24 * HOUR) + HOUR);
      await h.runJobs();
    } finally {
      sandbox.faults.reset();
    }
    const m = json(await h.inject({ method: 'GET', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers })).data;
    assert.ok(m.novidades >= 1, JSON.stringify(m));
    assert.equal(m.ultimoErro, null);
    const stored = await movementIds(acc, c.numero);
    assert.equal(stored.length, known.length + m.novidades, 'the new movements are stored');
    const kinds = (await feed(acc, c.numero)).map((e) => e.event);
    assert.ok(kinds.includes('nova_movimentacao') && kinds.includes('atualizacao_processo_concluida'), kinds.join(', '));
    assert.ok(!(await partyNames(acc, c.numero)).includes('PARTE NOVA FICTICIA DO MONITOR'), 'DJEN failed: the parties wait');
    assert.equal((await auxiliaryFailures()) - failuresBefore, 1, 'one auxiliary failure counted');
    const warned = auxiliaryWarnings(logsFrom, c);
    assert.equal(warned.length, 1, 'one warn line');
    assert.deepEqual([warned[0]!.tribunal, warned[0]!.source, warned[0]!.step], [c.court.sigla, 'djen', 'partes']);

    clock.advance(60_000);
    await h.runJobs();
    assert.ok((await partyNames(acc, c.numero)).includes('PARTE NOVA FICTICIA DO MONITOR'));
    assert.equal((await feed(acc, c.numero)).filter((e) => e.event === 'nova_movimentacao').length, 1);
    await stop(acc, id);
  });
}
