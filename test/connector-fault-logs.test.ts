/**
 * No personal data in logs, ever (issue 29): every connector is driven through its sandbox fault
 * knobs (a 200 whose body is cut in half, which still holds the start of the real answer: parties,
 * their documents, lawyers; and a 5xx), and then
 *   - the failure is a SourceError whose message names the source, the status, the size and a hash,
 *     and quotes none of the names and documents the same call returns when the upstream is healthy;
 *   - where the app logs such failures (a case's enrichment job against the case-details provider,
 *     a summary's job against the model, a monitor's check against DataJud), the job runs and fails;
 *   - a lookup through the API is a 5xx with its code, never a 500, and its body quotes none of them;
 * and every captured log line is then searched for those names and documents, and scanned by
 * test/log-scan.ts for CPFs, CNPJs, keys and secrets (the harness scans every line of every test).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type Harness, type TestAccount } from './harness.ts';
import { SourceError } from '../src/platform/ports/source-error.ts';
import type { Upstream } from '../src/sandbox/faults.ts';
import type { ElectoralEditionRecord } from '../src/platform/ports/electoral.ts';
import { boardItem } from '../src/capabilities/mural/testing.ts';
import { warrantCpfs } from '../src/capabilities/warrants/testing.ts';
import { sandboxNups } from '../src/capabilities/administrative/testing.ts';
import { lastBusinessDay } from '../src/capabilities/gazettes/testing.ts';

let h: Harness;
let acc: TestAccount;
before(async () => {
  // Retries wait a thousandth of their production delays.
  h = await createHarness({ captureLogs: true, env: { TRAMITA_DEV_TIME_SCALE: '1000' } });
  acc = await h.createAccount({ credits: 100_000 });
});
after(() => h.close());

const sandbox = () => h.sources.sandbox!;

/** Keys whose string values name a person or a party, or carry their document. */
const PERSONAL_KEY = /nome|documento|cpf|cnpj|interessad|credor|benefici|alcunha/i;

/** Every personal string a record holds (names of two words or more, documents). */
function personalStrings(value: unknown, key = '', out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (PERSONAL_KEY.test(key) && (/\S+\s+\S+/.test(value.trim()) || /^[0-9A-Z]{11,14}$/.test(value))) out.add(value.trim());
  } else if (Array.isArray(value)) {
    for (const v of value) personalStrings(v, key, out);
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [k, v] of Object.entries(value)) personalStrings(v, k, out);
  }
  return out;
}

/** Everything personal the drills met, checked against every log line at the end. */
const seen = new Set<string>();

/** A case of the sandbox with parties that have documents, a CPF and a CNPJ among them. */
function caseWithDocuments() {
  const now = sandbox().dataset.now();
  return sandbox().dataset.cases.find(
    (c) => c.filedAt <= now && c.partes.some((p) => p.person.documento?.length === 11) && c.partes.some((p) => p.person.documento?.length === 14),
  )!;
}

interface Drill {
  upstream: Upstream;
  /** What the port is asked (the same call, healthy and faulted). */
  call: () => Promise<unknown>;
}

/** Every connector, through its port, on the sandbox (the upstream names are the fault knobs'). */
async function drills(): Promise<Record<string, Drill>> {
  const s = h.sources;
  const c = caseWithDocuments();
  const doc = c.partes.find((p) => p.person.documento?.length === 11)!.person.documento!;
  const day = lastBusinessDay(h);
  const djen = sandbox().djen.examples();
  const board = boardItem(h);
  // The second steps' inputs, read while the upstream is healthy: a TSE edition of the last days, a debtor entity.
  let edition: ElectoralEditionRecord | undefined;
  for (let t = Date.parse(day); !edition; t -= 86_400_000) [edition] = await s.electoral.editions('TSE', new Date(t).toISOString().slice(0, 10));
  const [entity] = await s.tjrj.entities();
  return {
    'DataJud: a case': { upstream: 'datajud', call: () => s.cases.fetchCase(c.numero) },
    "Portal: a case's parties": { upstream: 'portal', call: () => s.details!.fetchDetails(c.numero) },
    'Portal: the cases of a CPF': { upstream: 'portal', call: () => s.details!.findByDocument(doc) },
    "DJEN: a case's communications": { upstream: 'djen', call: () => s.publications.search({ numeroCnj: djen.numeroProcesso! }) },
    'DJEN: a caderno': { upstream: 'djen', call: () => s.publications.caderno(djen.caderno!.siglaTribunal, djen.caderno!.data, 'D', async () => {}) },
    'Model: a completion': {
      upstream: 'llm',
      call: () => s.model!.complete({ messages: [{ role: 'user', content: `Resuma: ${c.partes.map((p) => p.person.nome).join(', ')}` }], maxTokens: 200 }),
    },
    'STF: a day': { upstream: 'stf', call: () => s.stf.day(day) },
    "DJE eleitoral: a day's editions": { upstream: 'dje', call: () => s.electoral.editions('TSE', day) },
    "DJE eleitoral: an edition's matérias": { upstream: 'dje', call: () => s.electoral.publications(edition) },
    'Mural: a search': { upstream: 'provedor', call: () => s.mural!.search({ parte: board.parte, pagina: 1 }) },
    'Warrants: a CPF': { upstream: 'mandados', call: () => s.warrants!.query({ cpf: warrantCpfs(h).comMandado }) },
    'Protocolo Integrado: a NUP': { upstream: 'protocolo', call: () => s.administrative.lookup(sandboxNups(h).encontrado) },
    'TJRJ: the debtor entities': { upstream: 'tjrj', call: () => s.tjrj.entities() },
    'TJRJ: a page of an order': { upstream: 'tjrj', call: () => s.tjrj.orderPage(entity.id, 'O', 1, 50) },
  };
}

test("every connector's truncated answers fail without quoting a name or a document of the answer", async () => {
  const all = await drills();
  for (const [name, drill] of Object.entries(all)) {
    const healthy = personalStrings(await drill.call());
    for (const p of healthy) seen.add(p);
    for (const fault of [{ malformed: true }]) {
      sandbox().faults.set({ upstream: drill.upstream, ...fault });
      let err: unknown;
      try {
        err = await drill.call().then(
          () => null,
          (e: unknown) => e,
        );
      } finally {
        sandbox().faults.reset();
      }
      assert.ok(err instanceof SourceError, `${name} ${JSON.stringify(fault)}: expected a SourceError, got ${String(err)}`);
      const leaked = [...healthy].filter((p) => err.message.includes(p));
      assert.deepEqual(leaked, [], `${name} ${JSON.stringify(fault)}: the message quotes the answer: ${err.message}`);
      if (fault.malformed && drill.upstream !== 'tjrj')
        assert.match(
          err.message,
          /\d+ bytes, sha256 [0-9a-f]{12}|not a whole PDF|cut short|could not be read|could not be unzipped|is not a readable ZIP/,
          `${name}: the body is named by size and hash: ${err.message}`,
        );
      // As the worker logs a job's failure: the message, whole.
      h.services.log.warn({ drill: name, failure: err.failure, err: err.message }, 'fault drill: upstream failed');
    }
  }
  assert.ok(seen.size > 20, `the drills met personal data to look for (${seen.size})`);
});

test("a case's enrichment against a truncated case-details answer fails its job without logging the parties (the issue's CPFs)", async () => {
  const c = caseWithDocuments();
  for (const p of c.partes) {
    seen.add(p.person.nome);
    if (p.person.documento) seen.add(p.person.documento);
  }
  sandbox().faults.set({ upstream: 'portal', malformed: true });
  try {
    const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    await h.runJobs();
  } finally {
    sandbox().faults.reset();
  }
  assert.ok(
    h.logs.some((l) => /job failed/.test(l) && /portal|Portal/.test(l)),
    'the enrichment job failed and said so',
  );
});

test('a summary against a truncated model answer ends in ERRO without logging the text', async () => {
  const c = caseWithDocuments();
  sandbox().faults.set({ upstream: 'llm', malformed: true });
  try {
    const res = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/resumo-ia/solicitar-atualizacao`, headers: acc.headers, payload: {} });
    assert.equal(res.statusCode, 200, res.body);
    await h.runJobs();
  } finally {
    sandbox().faults.reset();
  }
});

test('lookups through the API under a truncated answer are 5xx with a code, never a 500, and quote nothing', async () => {
  const c = caseWithDocuments();
  const day = lastBusinessDay(h);
  const doc = c.partes.find((p) => p.person.documento?.length === 11)!.person.documento!;
  const fresh = sandbox()
    .dataset.cases.filter((x) => x.filedAt <= sandbox().dataset.now() && x.numero !== c.numero)
    .at(-1)!;
  const routes: [Upstream, string][] = [
    ['datajud', `/v1/processos/cnj/${fresh.numero}`],
    ['portal', `/v1/processos?cpf_cnpj=${doc}`],
    ['djen', `/v1/processos/numero/${sandbox().djen.examples().numeroProcesso}/diarios-oficiais`],
    ['stf', `/v1/stf/publicacoes?parte=${encodeURIComponent('Fulano')}&data_inicio=${day}&data_fim=${day}`],
    ['dje', `/v1/dje-eleitoral/edicoes?tribunal=TSE&data_inicio=${day}&data_fim=${day}`],
    ['provedor', `/v1/mural-eleitoral/publicacoes?parte=${encodeURIComponent(boardItem(h).parte)}`],
    ['mandados', `/v1/mandados?cpf=${warrantCpfs(h).comMandado}`],
    ['protocolo', `/v1/processos/administrativos/nup/${sandboxNups(h).encontrado}`],
  ];
  for (const [upstream, url] of routes) {
    sandbox().faults.set({ upstream, malformed: true });
    try {
      const res = await h.inject({ method: 'GET', url, headers: { ...acc.headers, prefer: 'wait=20' } });
      assert.ok(res.statusCode === 503 || res.statusCode === 504 || res.statusCode === 200 || res.statusCode === 202, `${url}: ${res.statusCode} ${res.body}`);
      if (res.statusCode >= 500) assert.match(json(res).error.code, /^SOURCE_(UNAVAILABLE|TIMEOUT)$/, `${url}: ${res.body}`);
      const leaked = [...seen].filter((p) => res.body.includes(p));
      if (res.statusCode >= 500) assert.deepEqual(leaked, [], `${url}: the error quotes the answer: ${res.body}`);
    } finally {
      sandbox().faults.reset();
    }
  }
});

test('after every drill, no log line holds a name or a document the upstreams answered', () => {
  const lines = h.logs;
  assert.ok(lines.length > 0);
  const leaks = lines.flatMap((line) => [...seen].filter((p) => line.includes(p)).map((p) => `${p.slice(0, 3)}…: ${line.slice(0, 200)}`));
  assert.deepEqual(leaks, []);
});
