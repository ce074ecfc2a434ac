/**
 * StfConnector against what the STF really sends (fixtures/stf-1..4.json replayed on 127.0.0.1): every
 * field a person reads, field by field; paging that trusts `total` on page 1 only; the 422's messages in
 * the failure. Then against the sandbox's STF API: the handshake, whole days in pages, every failure.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { StfPublicationRecord } from '../../platform/ports/stf.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { refusalMessages, StfConnector, type StfConnectorOptions } from './connector.ts';
import { readStfItem } from './item.ts';
import { CAPTURED_DAY, CAPTURED_LAST_EDITION, startStfReplay, stfCapture, stfCaptureBytes, unpublishedPage } from './testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const connectors: StfConnector[] = [];
after(() => Promise.all(connectors.map((c) => c.close())));
function connector(options: Partial<StfConnectorOptions> = {}) {
  const c = new StfConnector({ baseUrl: sb.stfUrl, sandbox: true, perMinute: 100_000, retryDelaysMs: [1, 1], sleep: async () => {}, ...options });
  connectors.push(c);
  return c;
}

function failure(failure: string) {
  return (err: unknown) => err instanceof SourceError && err.failure === failure && err.source === 'stf';
}

// ---- the real answers -----------------------------------------------------------------------------

/** What a person reads of one envolvido: name, polo, category, role and every OAB (canonical). */
const people = (r: StfPublicationRecord) => r.envolvidos.map((e) => [e.nome, e.polo, e.categoria, e.papel, e.oabs.map((o) => `${o.uf}${o.numero}`)]);

test('stf-1.json read field by field: publication day, divulgação instant in Brasília, every party with polo and category, every OAB of every lawyer', () => {
  const items = stfCapture('stf-1').publicacoes.map(readStfItem);
  assert.deepEqual(
    items.map((i: StfPublicationRecord) => [i.id, i.processo, i.processoId, i.tipo, i.relator, i.divulgacao, i.divulgadoEm, i.publicacao]),
    [
      ['993077', 'Pet 16560', '7661357', 'Decisão Final', 'MIN. GILMAR MENDES', CAPTURED_DAY, '2026-08-13T20:32:00.645-03:00', '2026-08-14'],
      ['993076', 'RHC 274604', '7637794', 'Decisão Final', 'MIN. CRISTIANO ZANIN', CAPTURED_DAY, '2026-08-13T20:30:03.093-03:00', '2026-08-14'],
      ['993075', 'RHC 275593', '7661540', 'Decisão Final', 'MIN. CRISTIANO ZANIN', CAPTURED_DAY, '2026-08-13T20:30:02.616-03:00', '2026-08-14'],
      ['993074', 'Pet 15758', '7542637', 'Decisão Final', 'MIN. CRISTIANO ZANIN', CAPTURED_DAY, '2026-08-13T20:30:03.600-03:00', '2026-08-14'],
      ['993073', 'Pet 14912', '7432229', 'Decisão Final', 'MIN. CRISTIANO ZANIN', CAPTURED_DAY, '2026-08-13T20:30:02.858-03:00', '2026-08-14'],
    ],
  );
  const [a, b, c, d, e] = items;
  assert.deepEqual(
    [a.codigo, a.tipoConteudo, a.confidencialidade, a.tipoPronunciamentoId, a.observacao, a.responsavel, a.colegiado, a.sessao, a.descricao],
    ['decisoes-monocraticas:601509', 'Publicação Monocrática', 'Público', '1242', null, null, null, null, null],
  );
  assert.match(a.html, /^<!--\?xml/);
  assert.deepEqual(people(a), [
    ['Paulo Liberte Jasper', 'ATIVO', 'REQUERENTE(S)', 'parte', []],
    ['Lucas Gabriel Correa Nogueira', 'ATIVO', 'ADVOGADO(A/S)', 'advogado', ['PA27882']],
    ['Ministério Público Federal', 'PASSIVO', 'REQUERIDO(A/S)', 'parte', []],
    ['Procurador-geral da República', 'PASSIVO', 'PROCURADOR(ES)', 'parte', []],
  ]);
  assert.deepEqual(people(b), [
    ['N.S.A.F.', 'ATIVO', 'RECORRENTE(S)', 'parte', []],
    ['Geraldo Kautzner Marques e Outro(a/s)', 'ATIVO', 'ADVOGADO(A/S)', 'advogado', ['RJ76166']], // printed zero-padded: OAB 076166/RJ
    ['Ministério Público Militar', 'PASSIVO', 'RECORRIDO(A/S)', 'parte', []],
    ['Procurador-geral da República', 'PASSIVO', 'PROCURADOR(ES)', 'parte', []],
  ]);
  assert.deepEqual(
    people(c).map((p) => p.slice(0, 2)),
    [
      ['Fabio Miguel da Silva Souza', 'ATIVO'],
      ['Kevilin Pires de Souza', 'ATIVO'],
      ['Anderson da Silva Marques', 'ATIVO'],
      ['Ministério Público do Estado do Espírito Santo', 'PASSIVO'],
      ['Procurador-geral de Justiça do Estado do Espírito Santo', 'PASSIVO'],
      ['Ministério Público Federal', 'PASSIVO'],
      ['Procurador-geral da República', 'PASSIVO'],
    ],
  );
  assert.deepEqual(people(c)[2][4], ['ES30684']);
  assert.deepEqual(
    people(d)
      .filter((p) => p[3] === 'advogado')
      .map((p) => [p[0], p[4]]),
    [
      ['Wilibrando Bruno Albuquerque de Araújo', ['GO76005A', 'PR130660', 'DF66470']], // OAB's (76005A/GO, 130660/PR, 66470/DF)
      ['Icaro Ruschel Ribas', ['PR74027']],
      ['Gabriella Ribeiro Vaz Nogueira', ['DF68600']],
    ],
  );
  assert.deepEqual(d.envolvidos[1].identificacoes, ["OAB's (76005A/GO, 130660/PR, 66470/DF)"], 'as printed, beside what was read');
  assert.deepEqual(people(e), [
    ['Conselho Reg de Contabilidade do Rio Grande do Sul', 'ATIVO', 'REQUERENTE(S)', 'parte', []],
    ['Flavio Henrique Unes Pereira', 'ATIVO', 'ADVOGADO(A/S)', 'advogado', ['DF31442', 'MG83471', 'RJ261006', 'SP518968']],
    ['Tribunal Superior do Trabalho', 'PASSIVO', 'REQUERIDO(A/S)', 'parte', []],
    ['Sem Representação nos Autos', 'PASSIVO', 'ADVOGADO(A/S)', 'sem_advogado', []], // the STF's placeholder: not a lawyer
  ]);
});

test('an item read strictly: INTERESSADO kept, a null publicacao is null, a date in another spelling is refused (never a silent null)', () => {
  const real = stfCapture('stf-1').publicacoes[0];
  const item = {
    ...real,
    publicacao: null,
    divulgacao: '2026-08-15T10:15:30',
    envolvidos: [{ nome: 'Fulano', polo: 'INTERESSADO', categoria: 'INTERESSADO(A/S)', identificacoes: [] }],
  };
  const r = readStfItem(item);
  assert.deepEqual(
    [r.publicacao, r.divulgacao, r.divulgadoEm, r.envolvidos[0].polo, r.envolvidos[0].papel],
    [null, '2026-08-15', '2026-08-15T10:15:30.000-03:00', 'INTERESSADO', 'parte'],
  );
  assert.throws(() => readStfItem({ ...real, divulgacao: '13/08/2026' }), /divulgacao "13\/08\/2026" is not an ISO local date-time/);
  assert.throws(() => readStfItem({ ...real, publicacao: '14/08/2026' }), /publicacao "14\/08\/2026" is neither null nor an ISO day/);
});

test(
  'the replayed STF: a day read past page 1 (whose total is the only one trusted) until the real past-the-end answer; ' +
    'ultimo-dje is the last edition, not a ceiling',
  async () => {
    const replay = await startStfReplay({ days: { [CAPTURED_DAY]: [stfCaptureBytes('stf-1')], '2026-08-15': [unpublishedPage('2026-08-15')] } });
    try {
      const stf = connector({ baseUrl: replay.url, pageSize: 5 });
      assert.equal(await stf.lastDay(), CAPTURED_LAST_EDITION);
      const day = await stf.day(CAPTURED_DAY);
      assert.deepEqual(
        day.map((i) => i.id),
        ['993077', '993076', '993075', '993074', '993073'],
      );
      assert.deepEqual(
        replay.searches.map((s) => [s.day, s.pagina]),
        [
          [CAPTURED_DAY, 1],
          [CAPTURED_DAY, 2],
        ],
        'a full page 1, then the past-the-end page (publicacoes [], total 0) ends the day',
      );
      // Page 1 announces 742 and holds 5 of 500: a short page short of the total is not the end.
      const full = connector({ baseUrl: replay.url });
      replay.searches.length = 0;
      assert.equal((await full.day(CAPTURED_DAY)).length, 5);
      assert.deepEqual(
        replay.searches.map((s) => [s.pagina, s.quantidade]),
        [
          [1, 500],
          [2, 500],
        ],
      );
      const after = await full.day('2026-08-15');
      assert.deepEqual(
        after.map((i) => [i.id, i.divulgacao, i.publicacao]),
        [['993200', '2026-08-15', null]],
        'a day divulged after /ultimo-dje is read',
      );
      assert.deepEqual(await full.day('2026-08-16'), [], 'an empty day is the past-the-end answer');
    } finally {
      await replay.close();
    }
  },
);

test("a 422 carries the STF's messages into the failure (stf-3.json)", async () => {
  assert.equal(refusalMessages(stfCaptureBytes('stf-3')), 'quantidade: deve ser menor ou igual a 500 (Erro de validação genérico.; 999.001)');
  assert.equal(refusalMessages(Buffer.from('not json')), null);
  const replay = await startStfReplay({ refuse: true });
  try {
    await assert.rejects(
      connector({ baseUrl: replay.url }).day(CAPTURED_DAY),
      (err) =>
        failure('malformed')(err) &&
        /HTTP 422 .*quantidade: deve ser menor ou igual a 500 \(Erro de validação genérico\.; 999\.001\)/.test((err as Error).message),
    );
  } finally {
    await replay.close();
  }
});

// ---- the sandbox ------------------------------------------------------------------------------------

test('lastDay and a whole day read in pages until a short one, each item parsed (every OAB of every notation)', async () => {
  const stf = connector({ pageSize: 7 });
  const day = await stf.lastDay();
  const items = await stf.day(day);
  const expected = sb.stf.gazette.day(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
  assert.deepEqual(
    items.map((i) => i.id),
    expected.map((i) => String(i.id)),
    'every item once, in order, across pages',
  );
  const withOab = items.find((i) => i.envolvidos.some((e) => e.oabs.length > 0))!;
  assert.ok(withOab, 'lawyers carry their OAB');
  assert.equal(withOab.divulgacao, day);
  assert.match(withOab.divulgadoEm, new RegExp(`^${day}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}-03:00$`));
  assert.match(withOab.html, /^<!--\?xml/);
  assert.ok(withOab.raw && typeof withOab.raw === 'object');
  const sunday = '2026-03-15';
  assert.deepEqual(await stf.day(sunday), [], 'no divulgação on a Sunday');
});

test('a session that died (403) is opened again once; a WAF challenge is unavailable, never data', async () => {
  const stf = connector();
  const day = await stf.lastDay();
  sb.stf.knobs.set({ expireSessions: true });
  sb.stf.knobs.reset();
  assert.ok((await stf.day(day)).length > 0, 'the 403 led to a new handshake');
  sb.stf.knobs.set({ wafChallenge: true });
  try {
    await assert.rejects(connector().lastDay(), failure('unavailable'));
  } finally {
    sb.stf.knobs.reset();
  }
});

test('5xx and 429 are retried (Retry-After honoured); past the retries they are SourceErrors; a cut body is malformed', async () => {
  const stf = connector();
  const day = await stf.lastDay();
  try {
    sb.faults.set({ upstream: 'stf', status: 503, times: 1 });
    assert.ok((await stf.day(day)).length > 0, 'one 503, then the answer');
    sb.faults.set({ upstream: 'stf', status: 503 });
    await assert.rejects(stf.day(day), failure('unavailable'));
    sb.faults.set({ upstream: 'stf', status: 429, retryAfterSeconds: 120 });
    await assert.rejects(stf.day(day), failure('rate_limited'));
    sb.faults.set({ upstream: 'stf', malformed: true });
    await assert.rejects(stf.day(day), failure('malformed'));
  } finally {
    sb.faults.reset();
  }
});
