/**
 * The consultations connector against the sandbox's e-SAJ and TJDFT simulators over 127.0.0.1: the
 * real clients and parsers, the per-host HTTP, the challenge knobs and the real challenge detector.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { visibleMovementCount, type SandboxCase } from '../../sandbox/data/model.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { ApiError } from '../../platform/errors.ts';
import { ConsultasConnector, enabledCourts } from './connector.ts';
import { ConsultaHttp } from './http.ts';

let sb: TestSandbox;
let connector: ConsultasConnector;

function connect(urls: Record<string, string>, userAgent = 'Tramita/0.1 (+ops@example.org; consulta processual)'): ConsultasConnector {
  const courts = enabledCourts(['TJSP', 'TJDFT'], urls).map((c) => ({ ...c, urls: { 1: c.urls[1], 2: c.court.urls[2] ? c.urls[1] : null } }));
  return new ConsultasConnector({ courts, http: new ConsultaHttp({ userAgent, perMinute: 100_000, timeoutMs: 5_000, retryDelaysMs: [0] }), sandbox: true });
}

const visible = (sigla: string) => sb.dataset.cases.filter((c) => c.court.sigla === sigla && c.filedAt <= sb.dataset.now());
const firstInstance = (c: SandboxCase) => c.instances.find((i) => i.grau !== 'G2' && i.grau !== 'TR')!;

before(async () => {
  sb = await startTestSandbox({ cases: 600 });
  connector = connect({ TJSP: `${sb.consultasUrl}/tjsp`, TJDFT: `${sb.consultasUrl}/tjdft` });
});
after(async () => {
  await connector.close();
  await sb.close();
});
beforeEach(() => sb.consultas.reset());

describe('e-SAJ (TJSP simulator)', () => {
  test('a case: its value, every party with its lawyers and their OABs, every movement with its text', async () => {
    const c = visible('TJSP').find((x) => x.valorCausaCentavos !== null && x.partes.some((p) => p.advogados.some((a) => a.oab)))!;
    assert.ok(c, 'the sandbox has a TJSP case with a value and a lawyer');
    const d = (await connector.fetchDetails(c.numero))!;
    assert.equal(d.valorCausaCentavos, c.valorCausaCentavos);
    assert.deepEqual(
      d.partes.map((p) => [p.polo, p.nome]),
      c.partes.map((p) => [p.polo, p.person.nome]),
    );
    assert.ok(
      d.partes.every((p) => p.documento === null),
      'e-SAJ shows no document',
    );
    const lawyer = c.partes.flatMap((p) => p.advogados).find((a) => a.oab)!;
    const read = d.partes.flatMap((p) => p.advogados).find((a) => a.nome === lawyer.nome)!;
    assert.deepEqual(read.oab, { uf: lawyer.oab!.uf, numero: lawyer.oab!.numero.replace(/^0+/, '') });
    const inst = firstInstance(c);
    assert.equal(d.consulta!.movimentos.length, visibleMovementCount(inst, sb.dataset.now()));
    assert.ok(d.consulta!.movimentos.some((m) => m.texto && /fictício/.test(m.texto)));
    assert.equal(d.consulta!.classe, inst.classe.nome);
    assert.equal(d.consulta!.fonte, 'consulta-tjsp');
    assert.equal(connector.covers(c.numero), true);
  });

  test("a number the court does not know is null (the page's own notice); another court's is not covered", async () => {
    const c = visible('TJSP')[0]!;
    const unknown = `${c.numero.slice(0, 13)}${c.numero.slice(13, 16)}9999`;
    assert.equal(await connector.fetchDetails(unknown), null);
    const other = sb.dataset.cases.find((x) => x.court.sigla === 'TRF4')!;
    assert.equal(connector.covers(other.numero), false);
    assert.equal(await connector.fetchDetails(other.numero), null);
  });

  test('a captcha page is `captcha`, an anti-bot page `anti_bot`: failures, never null', async () => {
    const c = visible('TJSP')[0]!;
    sb.consultas.set({ challenge: 'captcha' });
    await assert.rejects(connector.fetchDetails(c.numero), (e: unknown) => e instanceof SourceError && e.failure === 'captcha' && e.source === 'consulta-tjsp');
    sb.consultas.set({ challenge: 'anti_bot' });
    await assert.rejects(connector.fetchDetails(c.numero), (e: unknown) => e instanceof SourceError && e.failure === 'anti_bot');
  });

  test("e-SAJ's message box refusing a search (refine, too many queries) is that court failing it, never nothing found", async () => {
    for (const [message, falha] of [
      ['refine', 'unavailable'],
      ['busy', 'rate_limited'],
    ] as const) {
      sb.consultas.set({ message, courts: ['TJSP'] });
      const report = await connector.searchCourts({ kind: 'nome', nome: 'Fulano' });
      assert.deepEqual(report.responderam, []);
      assert.deepEqual(
        report.falharam.map((f) => [f.tribunal, f.falha]),
        [['TJSP', falha]],
      );
    }
  });

  test('a number search answered with a one-row list is followed to the exact case', async () => {
    const c = visible('TJSP')[0]!;
    sb.consultas.set({ numberList: true });
    const d = (await connector.fetchDetails(c.numero))!;
    assert.equal(d.numeroCnj, c.numero);
    assert.deepEqual(
      d.partes.map((p) => p.nome),
      c.partes.map((p) => p.person.nome),
    );
  });

  test("a client throwing what is not a SourceError (a page's OAB as ApiError, a TypeError) is the court's `malformed`, never a 4xx or a 500", async () => {
    const c = visible('TJSP')[0]!;
    for (const thrown of [new ApiError('INVALID_OAB', 'OAB "XX123": unknown UF.'), new TypeError('cannot read x of undefined')]) {
      const broken = new ConsultasConnector({
        courts: enabledCourts(['TJSP'], { TJSP: `${sb.consultasUrl}/tjsp` }),
        http: new ConsultaHttp({ userAgent: 'Tramita-test', perMinute: 100_000, timeoutMs: 5_000, retryDelaysMs: [0] }),
        sandbox: true,
        factories: { esaj: () => ({ fetchCase: () => Promise.reject(thrown) }) },
      });
      await assert.rejects(
        broken.fetchDetails(c.numero),
        (e: unknown) => e instanceof SourceError && e.failure === 'malformed' && e.source === 'consulta-tjsp' && !e.message.includes(thrown.message),
      );
      await broken.close();
    }
  });

  test('a page cut short is `malformed`, never a shorter case', async () => {
    sb.faults.set({ upstream: 'consultas', malformed: true });
    try {
      await assert.rejects(connector.fetchDetails(visible('TJSP')[0]!.numero), (e: unknown) => e instanceof SourceError && e.failure === 'malformed');
    } finally {
      sb.faults.reset();
    }
  });
});

describe('TJDFT REST (simulator of the documented shapes)', () => {
  test('parties by pole across pages, lawyers after their party with OABs, unmasked documents, no value', async () => {
    const c = visible('TJDFT').find((x) => x.partes.reduce((n, p) => n + 1 + p.advogados.length, 0) > 5) ?? visible('TJDFT')[0]!;
    const d = (await connector.fetchDetails(c.numero))!;
    assert.equal(d.valorCausaCentavos, null, 'TJDFT publishes no value: null, never 0');
    assert.deepEqual(
      d.partes.map((p) => [p.polo, p.nome, p.documento, p.advogados.map((a) => a.nome)]),
      c.partes.map((p) => [p.polo, p.person.nome, p.person.documento, p.advogados.map((a) => a.nome)]),
    );
    assert.equal(d.consulta!.sistema, 'tjdft');
    assert.deepEqual(d.consulta!.movimentos, []);
  });

  test('`status` other than "ok" is a failure; its unknown message is quoted (issue 52), never a not-found', async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"error","code":"500","messages":["x"],"result":null}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const local = connect({ TJDFT: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      await assert.rejects(
        local.fetchDetails(visible('TJDFT')[0]!.numero),
        (e: unknown) => e instanceof SourceError && e.failure === 'unavailable' && e.source === 'consulta-tjdft' && e.message.endsWith('results: "x"'),
      );
    } finally {
      await local.close();
      server.close();
    }
  });
});

test("every request names Tramita and the operator's contact; cookies set by the court come back; redirects stay on its host", async () => {
  const seen: { ua?: string; cookie?: string; url?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ ua: req.headers['user-agent'], cookie: req.headers.cookie, url: req.url });
    if (req.url!.startsWith('/cpopg/open.do'))
      return res.writeHead(200, { 'set-cookie': 'JSESSIONID=abc; Path=/cpopg', 'content-type': 'text/html' }).end('<html><body></body></html>');
    res.writeHead(302, { location: 'http://elsewhere.example/cpopg/show.do' }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const local = connect({ TJSP: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, 'Tramita/0.1 (+ops@example.org; consulta processual)');
  try {
    await assert.rejects(
      local.fetchDetails('10001497120248260346'),
      (e: unknown) => e instanceof SourceError && e.failure === 'unavailable' && /another host/.test(e.message),
    );
    assert.equal(seen.length, 2);
    assert.ok(seen.every((s) => s.ua === 'Tramita/0.1 (+ops@example.org; consulta processual)'));
    assert.equal(seen[1]!.cookie, 'JSESSIONID=abc');
    assert.match(seen[1]!.url!, /^\/cpopg\/search\.do\?.*dadosConsulta\.valorConsultaNuUnificado=1000149-71\.2024\.8\.26\.0346/);
  } finally {
    await local.close();
    server.close();
  }
});

test('CONSULTA_SEARCHES: every system offering a search has a client that searches; TJDFT offers none and is never asked', async () => {
  const { CLIENT_FACTORIES, CONSULTA_SEARCHES } = await import('./systems.ts');
  for (const [system, kinds] of Object.entries(CONSULTA_SEARCHES)) {
    const court = enabledCourts('all', {}).find((c) => c.court.sistema === system)!;
    const client = CLIENT_FACTORIES[court.court.sistema]({
      ...court,
      http: new ConsultaHttp({ userAgent: 't', perMinute: 1, timeoutMs: 100 }),
      source: 'consulta-x',
      label: 'x',
    });
    assert.equal(typeof client.search === 'function', kinds.length > 0, system);
  }
  const report = await connector.searchCourts({ kind: 'documento', documento: '00000000191' });
  assert.deepEqual(report.consultadas, ['TJSP']);
});

test("a search's hits are read with one request each, on the search's session; past the links' while, by the whole number flow", async () => {
  const { ManualClock } = await import('../../platform/clock.ts');
  const byDoc = new Map<string, SandboxCase[]>();
  for (const c of visible('TJSP').filter((x) => x.numero.slice(16) !== '0000'))
    for (const p of c.partes) if (p.person.documento?.length === 11) byDoc.set(p.person.documento, [...(byDoc.get(p.person.documento) ?? []), c]);
  const [documento, cases] = [...byDoc].find(([, cs]) => new Set(cs.map((c) => c.numero)).size >= 2)!;
  const clock = new ManualClock();
  const courts = enabledCourts(['TJSP'], { TJSP: `${sb.consultasUrl}/tjsp` }).map((c) => ({ ...c, urls: { 1: c.urls[1], 2: null } }));
  const local = new ConsultasConnector({ courts, clock, sandbox: true, http: new ConsultaHttp({ userAgent: 't', perMinute: 100_000, timeoutMs: 5_000 }) });
  const requests = () => sb.stats().consultas.bySegment.tjsp ?? 0;
  try {
    const report = await local.searchCourts({ kind: 'documento', documento });
    const numeros = report.responderam[0]!.numeros;
    assert.ok(numeros.length >= 2 && cases.every((c) => numeros.includes(c.numero)));
    const before = requests();
    for (const n of numeros) assert.equal((await local.fetchDetails(n))?.numeroCnj, n);
    assert.equal(requests() - before, numeros.length, 'one request per hit: the page its row links');

    await local.searchCourts({ kind: 'documento', documento });
    clock.advance(6 * 60_000);
    const late = requests();
    assert.equal((await local.fetchDetails(numeros[0]!))?.numeroCnj, numeros[0]);
    assert.equal(requests() - late, 3, 'past the while: the search form, the number search, the page');
  } finally {
    await local.close();
  }
});

describe('e-SAJ 2nd degree (issue 52 item 3)', () => {
  const appealed = () => visible('TJSP').find((x) => x.instances.some((i) => i.grau === 'G2') && x.instances.some((i) => i.grau === 'G1'))!;

  test('DataJud lists a G2 instance: the simulator’s cposg read too, its parties labelled G2, its relator and movements beside the G1 page', async () => {
    const c = appealed();
    assert.ok(c, 'the sandbox has a TJSP case with G1 and G2 instances');
    const d = (await connector.fetchDetails(c.numero, undefined, { instancias: Promise.resolve(['G1', 'G2']) }))!;
    assert.deepEqual(
      d.partes.map((p) => [p.grau, p.polo, p.nome]),
      [...c.partes.map((p) => ['G1', p.polo, p.person.nome]), ...c.partes.map((p) => ['G2', p.polo, p.person.nome])],
    );
    assert.ok(d.partes.filter((p) => p.grau === 'G2' && p.polo === 'ATIVO').every((p) => p.tipo === 'Apelante'));
    const [appeal, ...more] = d.consulta!.segundoGrau!;
    assert.equal(more.length, 0);
    const g2 = c.instances.find((i) => i.grau === 'G2')!;
    assert.equal(appeal!.instancia, 'G2');
    assert.equal(appeal!.juiz, 'DES. RELATOR FICTÍCIO DA SILVA');
    assert.equal(appeal!.orgao, g2.orgao.nome);
    assert.equal(appeal!.movimentos.length, visibleMovementCount(g2, sb.dataset.now()));
    assert.ok(appeal!.movimentos.some((m) => m.texto && /fictício/.test(m.texto)));
    assert.equal(d.consulta!.movimentos.length, visibleMovementCount(firstInstance(c), sb.dataset.now()));
  });

  test('without a G2 (or TR) among DataJud’s instances, or without them at all, the 2nd degree is not read', async () => {
    const c = appealed();
    for (const instancias of [['G1'], undefined]) {
      const d = (await connector.fetchDetails(c.numero, undefined, instancias ? { instancias } : undefined))!;
      assert.equal(d.consulta!.segundoGrau, undefined);
      assert.ok(d.partes.every((p) => p.grau === undefined));
    }
  });
});
