/** PortalConnector against the sandbox portal over 127.0.0.1: mapping, lookups, downloads, error mapping. */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { SourceError, type SourceFailure } from '../../platform/ports/source-error.ts';
import { PortalConnector, type PortalConnectorOptions } from './connector.ts';
import { oabOf } from '../../platform/identifiers/oab.ts';
import { reaisToCentavos } from './wire.ts';

describe('wire helpers', () => {
  test('valorCausa strings become exact centavos', () => {
    assert.equal(reaisToCentavos('19.99'), 1999);
    assert.equal(reaisToCentavos('0.1'), 10);
    assert.equal(reaisToCentavos('12345.67'), 1_234_567);
    assert.equal(reaisToCentavos('5000000'), 500_000_000);
    for (const bad of ['1.005', '12,50', '-3.00', 'abc', '']) assert.throws(() => reaisToCentavos(bad), { failure: 'malformed' });
  });

  test('OAB strings become {uf, numero}; unreadable ones null', () => {
    assert.deepEqual(oabOf('SP123456'), { uf: 'SP', numero: '123456' });
    assert.deepEqual(oabOf('rs 004321'), { uf: 'RS', numero: '4321' });
    assert.equal(oabOf('XX1'), null);
    assert.equal(oabOf(null), null);
  });
});

describe('PortalConnector', () => {
  let sb: TestSandbox;
  let connector: PortalConnector;
  const open: PortalConnector[] = [];
  const make = (options: Partial<PortalConnectorOptions> = {}) => {
    const c = new PortalConnector({ baseUrl: sb.portalUrl, sandbox: true, retryDelaysMs: [10, 20], timeoutMs: 2_000, ...options });
    open.push(c);
    return c;
  };
  before(async () => {
    sb = await startTestSandbox();
    connector = make();
  });
  after(async () => {
    for (const c of open) await c.close();
    await sb.close();
  });
  beforeEach(() => {
    sb.faults.reset();
    sb.resetStats();
  });
  const now = () => sb.dataset.now();
  const visibleCase = () =>
    sb.dataset.cases.find((c) => c.filedAt <= now() && c.valorCausaCentavos !== null && c.documentos.some((d) => d.juntadaAt <= now()))!;
  const expectFailure = async (promise: Promise<unknown>, failure: SourceFailure) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof SourceError, `expected SourceError, got ${String(err)}`);
    assert.equal(err.source, 'portal');
    assert.equal(err.failure, failure, err.message);
    return err;
  };

  test('info marks the sandbox', async () => {
    assert.deepEqual(connector.info, { name: 'Portal', sandbox: true });
    const real = new PortalConnector({ baseUrl: 'http://127.0.0.1:1' });
    assert.deepEqual(real.info, { name: 'Portal', sandbox: false });
    await real.close();
  });

  test('fetchDetails maps value, parties, lawyers and documents', async () => {
    const c = visibleCase();
    const details = (await connector.fetchDetails(c.numero))!;
    assert.equal(details.numeroCnj, c.numero);
    assert.equal(details.valorCausaCentavos, c.valorCausaCentavos);
    assert.equal(details.partes.length, c.partes.length);
    details.partes.forEach((p, i) => {
      const src = c.partes[i];
      assert.equal(p.nome, src.person.nome);
      assert.equal(p.documento, src.person.documento);
      assert.deepEqual(
        p.advogados,
        src.advogados.map((a) => ({ nome: a.nome, oab: a.oab && { uf: a.oab.uf, numero: a.oab.numero } })),
      );
    });
    const visibleDocs = c.documentos.filter((d) => d.juntadaAt <= now());
    assert.deepEqual(
      details.documentos.map((d) => d.id),
      visibleDocs.map((d) => d.id),
    );
    for (const d of details.documentos) assert.ok(d.tamanhoBytes > 0);
    assert.equal(await connector.fetchDetails('00000000000000000000'), null);
    assert.equal(await connector.fetchDetails('123'), null);
    assert.equal(
      await connector
        .fetchDetails(
          `${c.numero.slice(0, 7)}-${c.numero.slice(7, 9)}.${c.numero.slice(9, 13)}.${c.numero[13]}.${c.numero.slice(14, 16)}.${c.numero.slice(16)}`,
        )
        .then((d) => d?.numeroCnj),
      c.numero,
    );
  });

  test('findByDocument and findByName match the data set', async () => {
    const ex = sb.dataset.examples();
    assert.deepEqual(
      await connector.findByDocument(ex.document!),
      sb.dataset.casesByDocument(ex.document!).map((c) => c.numero),
    );
    assert.deepEqual(
      await connector.findByName(ex.name!.toUpperCase()),
      sb.dataset.casesByName(ex.name!).map((c) => c.numero),
    );
    assert.deepEqual(await connector.findByDocument('...'), []);
    assert.deepEqual(await connector.findByName('  '), []);
    assert.deepEqual(await connector.findByDocument('11144477735'), []);
  });

  test('downloadDocument returns the PDF bytes; unknown documents are null', async () => {
    const c = visibleCase();
    const details = (await connector.fetchDetails(c.numero))!;
    const doc = details.documentos[0];
    const file = (await connector.downloadDocument(c.numero, doc.id))!;
    assert.equal(file.mimeType, 'application/pdf');
    assert.equal(file.body.length, doc.tamanhoBytes);
    assert.equal(Buffer.from(file.body.subarray(0, 5)).toString('latin1'), '%PDF-');
    assert.equal(await connector.downloadDocument(c.numero, 'nope'), null);
    assert.equal(await connector.downloadDocument('00000000000000000000', doc.id), null);
  });

  test('5xx: retried twice, then unavailable; a transient 5xx is absorbed', async () => {
    const c = visibleCase();
    sb.faults.set({ upstream: 'portal', status: 503 });
    await expectFailure(connector.fetchDetails(c.numero), 'unavailable');
    assert.equal(sb.stats().portal.requests, 3);
    sb.faults.set({ upstream: 'portal', status: 502, times: 1 });
    sb.resetStats();
    assert.equal((await connector.fetchDetails(c.numero))?.numeroCnj, c.numero);
    assert.equal(sb.stats().portal.requests, 2);
  });

  test('429: retried after a short Retry-After, returned at once when the wait is long', async () => {
    const c = visibleCase();
    sb.faults.set({ upstream: 'portal', status: 429, retryAfterSeconds: 0 });
    const err = await expectFailure(connector.fetchDetails(c.numero), 'rate_limited');
    assert.equal(err.retryAfterMs, 0);
    assert.equal(sb.stats().portal.requests, 3);
    sb.resetStats();
    sb.faults.set({ upstream: 'portal', status: 429, retryAfterSeconds: 60 });
    const long = await expectFailure(connector.findByDocument('11144477735'), 'rate_limited');
    assert.equal(long.retryAfterMs, 60_000);
    assert.equal(sb.stats().portal.requests, 1);
  });

  test('a hanging provider → timeout after every attempt', async () => {
    const quick = make({ timeoutMs: 150 });
    sb.faults.set({ upstream: 'portal', hang: true });
    // The provider never answers: only the connector's own timeout ends each attempt.
    await expectFailure(quick.fetchDetails(visibleCase().numero), 'timeout');
    assert.equal(sb.stats().portal.requests, 3, 'every attempt timed out and the next one went out');
  });

  test('truncated JSON or PDF → malformed, not retried', async () => {
    const c = visibleCase();
    const docId = (await connector.fetchDetails(c.numero))!.documentos[0].id;
    sb.resetStats();
    sb.faults.set({ upstream: 'portal', malformed: true });
    await expectFailure(connector.fetchDetails(c.numero), 'malformed');
    await expectFailure(connector.findByName('de Teste'), 'malformed');
    await expectFailure(connector.downloadDocument(c.numero, docId), 'malformed');
    assert.equal(sb.stats().portal.requests, 3);
  });

  test('nothing listening → unavailable', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const dead = make({ baseUrl: `http://127.0.0.1:${port}/portal` });
    await expectFailure(dead.fetchDetails(visibleCase().numero), 'unavailable');
  });

  test("the caller's abort is not a source failure", async () => {
    sb.faults.set({ upstream: 'portal', latencyMs: 500 });
    const ac = new AbortController();
    const pending = connector.fetchDetails(visibleCase().numero, ac.signal);
    setTimeout(() => ac.abort(new Error('caller gave up')), 50);
    await assert.rejects(pending, { message: 'caller gave up' });
  });
});
