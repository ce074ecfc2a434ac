/**
 * The PJe simulator through the real client (PjeClassicClient over HTTP on 127.0.0.1): a sandbox case of
 * a PJe court comes back with its parties, lawyers and OABs, movement texts and no value; a number it
 * does not have is PJe's empty answer; the captcha and anti-bot knobs give those failures; a post
 * without what the page's script sends is refused like JSF does; the fault layer's `pje` upstream.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../../platform/ports/source-error.ts';
import { PjeClassicClient } from '../../sources/consultas/pje/client.ts';
import { loopbackConsultaHttp } from '../../sources/consultas/pje/testing.ts';
import { isCaseVisible, visibleMovementCount, type SandboxCase } from '../data/model.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
let sample: SandboxCase;
before(async () => {
  sb = await startTestSandbox();
  const now = sb.dataset.now();
  sample = sb.dataset.cases.find(
    (c) =>
      c.court.sistemaAtual === 'PJe' &&
      isCaseVisible(c, now) &&
      c.partes.some((p) => p.advogados.some((a) => a.oab)) &&
      visibleMovementCount(c.instances[0], now) > 0,
  )!;
  assert.ok(sample, 'the data set has a visible case of a PJe court with a lawyer');
});
after(() => sb.close());

const client = (sigla = sample.court.sigla) =>
  new PjeClassicClient({ baseUrl: `${sb.pjeUrl}/${sigla}`, http: loopbackConsultaHttp(), source: `${sigla} PJe`, label: `${sigla} PJe` });
const failure = (kind: string) => (e: unknown) => e instanceof SourceError && e.failure === kind;

test('a sandbox case of a PJe court: parties with document, lawyers with OAB, movement texts newest first, value null', async () => {
  const found = await client().fetchCase(sample.numero);
  assert.ok(found);
  assert.equal(found.numeroCnj, sample.numero);
  assert.equal(found.tribunal, sample.court.sigla);
  assert.equal(found.valorCausaCentavos, null);
  assert.equal(found.classe, sample.instances[0].classe.nome.toUpperCase());
  assert.deepEqual(found.assuntos, [sample.instances[0].assuntos[0].nome]);
  assert.equal(found.orgao, sample.instances[0].orgao.nome);
  assert.deepEqual(
    found.partes.map((p) => [p.polo, p.tipo, p.nome, p.documento, p.advogados.map((a) => [a.nome, a.oab])]),
    sample.partes.map((p) => [p.polo, p.tipo, p.person.nome, p.person.documento, p.advogados.map((a) => [a.nome, a.oab])]),
  );
  const inst = sample.instances[0];
  const seen = inst.movements.slice(0, visibleMovementCount(inst, sb.dataset.now()));
  const expected = seen.slice(-15).reverse();
  assert.deepEqual(
    found.movimentos.map((m) => Date.parse(m.data)),
    expected.map((m) => Math.floor(m.at / 1000) * 1000),
  );
  assert.ok(found.movimentos.every((m, i) => m.titulo.startsWith(expected[i].type.nome)));
});

test('every party of 30 PJe cases in 30 courts reads back as the data set has it (CPF, CNPJ, hidden documents, other interested parties)', async () => {
  const now = sb.dataset.now();
  const cases = sb.dataset.cases.filter((c) => c.court.sistemaAtual === 'PJe' && isCaseVisible(c, now)).slice(0, 30);
  assert.equal(cases.length, 30);
  for (const c of cases) {
    const found = await client(c.court.sigla).fetchCase(c.numero);
    assert.deepEqual(
      found?.partes.map((p) => [p.polo, p.tipo, p.nome, p.documento, p.tipoPessoa, p.advogados]),
      c.partes.map((p) => [p.polo, p.tipo, p.person.nome, p.person.documento, p.person.documento ? p.person.tipoPessoa : null, p.advogados]),
      c.numero,
    );
  }
});

test("a number the court does not have, or a case of another court, is PJe's empty answer: null", async () => {
  assert.equal(await client().fetchCase('00000010120258100114'), null);
  const other = sb.dataset.cases.find((c) => c.court.sigla !== sample.court.sigla && isCaseVisible(c, sb.dataset.now()))!;
  assert.equal(await client().fetchCase(other.numero), null);
});

test('knobs: captcha → the search refuses the captcha (failure captcha); antiBot → Cloudflare 403 (anti_bot); only for the courts named', async () => {
  try {
    sb.pje.set({ captcha: true });
    await assert.rejects(client().fetchCase(sample.numero), failure('captcha'));
    sb.pje.set({ antiBot: true, courts: [sample.court.sigla] });
    await assert.rejects(client().fetchCase(sample.numero), failure('anti_bot'));
    sb.pje.set({ antiBot: true, courts: ['TJXX'] });
    assert.equal((await client().fetchCase(sample.numero))?.numeroCnj, sample.numero);
    const put = await fetch(`${sb.url}/_sandbox/pje`, { method: 'PUT', body: JSON.stringify({ captcha: 'yes' }) });
    assert.equal(put.status, 400);
  } finally {
    sb.pje.reset();
  }
});

test("a search POST without the session or the script's fields is refused as JSF does (500 ViewExpired)", async () => {
  const res = await fetch(`${sb.pjeUrl}/${sample.court.sigla}/ConsultaPublica/listView.seam;jsessionid=SBX${sample.court.sigla}.pje-sandbox-1`, {
    method: 'POST',
    body: 'AJAXREQUEST=_viewRoot',
  });
  assert.equal(res.status, 500);
  assert.match(await res.text(), /ViewExpiredException/);
});

test('fault layer: a 503 that lasts is unavailable (one alone is retried), a cut page malformed, a slow host still answers', async () => {
  try {
    sb.faults.set({ upstream: 'pje', status: 503 });
    await assert.rejects(client().fetchCase(sample.numero), failure('unavailable'));
    sb.faults.set({ upstream: 'pje', status: 503, times: 1 });
    assert.equal((await client().fetchCase(sample.numero))?.numeroCnj, sample.numero, 'the per-host pool retries a passing 503');
    sb.faults.set({ upstream: 'pje', malformed: true });
    await assert.rejects(client().fetchCase(sample.numero), failure('malformed'));
    sb.faults.set({ upstream: 'pje', latencyMs: 20 });
    assert.equal((await client().fetchCase(sample.numero))?.numeroCnj, sample.numero);
    sb.faults.set({ upstream: 'pje', hang: true });
    await assert.rejects(client().fetchCase(sample.numero, AbortSignal.timeout(200)), (e: unknown) => (e as Error).name === 'TimeoutError');
  } finally {
    sb.faults.reset('pje');
  }
});
