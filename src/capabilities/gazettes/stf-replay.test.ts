/**
 * Tramita pointed at a stand-in replaying what the STF really sent (src/sources/stf/fixtures, from
 * reference/upstream/real/; TRAMITA_STF_URL at a node:http server on 127.0.0.1), checked through HTTP as
 * a new user would: every publication keeps its publication day (or null while unpublished, filled once
 * its edition is out), every party with its polo, every lawyer with every OAB of an `OAB's (…)` list;
 * a search, a publication monitor and the lawyers' endpoint by any OAB of the list find the
 * publication; a lettered registration (`76005A/GO`) is found as GO76005A, never as GO76005; a day
 * divulged after `/ultimo-dje` is read.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { ManualClock } from '../../platform/clock.ts';
import { CAPTURED_DAY, startStfReplay, stfCaptureBytes, unpublishedPage } from '../../sources/stf/testing.ts';

const AFTER_LAST_EDITION = '2026-08-15';
const replay = await startStfReplay({ days: { [CAPTURED_DAY]: [stfCaptureBytes('stf-1')], [AFTER_LAST_EDITION]: [unpublishedPage(AFTER_LAST_EDITION)] } });
// 09:00 in Brasília on the captured day, before its divulgações: monitors created now hear them as news.
const clock = new ManualClock(`${CAPTURED_DAY}T12:00:00.000Z`);
const h = await createHarness({
  clock,
  env: {
    TRAMITA_STF_URL: replay.url,
    TRAMITA_FEED_SETTLE_MS: '0',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,search=100000/60s,monitor=100000/60s,account=100000/60s',
  },
});
after(async () => {
  await h.close();
  await replay.close();
});

const get = (acc: TestAccount, url: string) => h.inject({ method: 'GET', url, headers: acc.headers });
const acc = await h.createAccount({ credits: 100_000 });

async function monitor(body: object, owner = acc): Promise<string> {
  const res = await h.inject({ method: 'POST', url: '/v1/monitoramentos/publicacoes', headers: owner.headers, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

/** Each monitor's id → the publications it announced (ids), from the pull feed. */
async function heard(owner = acc): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const e of json(await get(owner, '/v1/eventos?limit=100')).data.items) {
    assert.equal(e.event, 'publicacao_judicial_nova');
    out.set(e.data.monitoramento.id, [...(out.get(e.data.monitoramento.id) ?? []), e.data.publicacao.id].sort());
  }
  return out;
}

const monitors = {
  list: await monitor({ oab: 'SP518968', fontes: ['STF'] }), // the last of "OAB's (31442/DF, 83471/MG, 261006/RJ, 518968/SP)"
  listOther: await monitor({ oab_estado: 'MG', oab_numero: '83471', fontes: ['STF'] }),
  lettered: await monitor({ oab: '76005-A/GO', fontes: ['STF'] }), // "OAB's (76005A/GO, …)"
  bareNumber: await monitor({ oab: 'GO76005', fontes: ['STF'] }), // another registration than GO76005A
  padded: await monitor({ oab: 'RJ76166', fontes: ['STF'] }), // printed "OAB 076166/RJ"
};
const other = await h.createAccount({ credits: 100_000 });
await monitor({ oab: 'SP518968', fontes: ['DJEN'] }, other);

// Sunday 16 August, when stf-4.json said the last edition was the 14th.
clock.set('2026-08-16T15:00:00.000Z');
const search = async (query: string) => {
  const res = await get(acc, `/v1/stf/publicacoes?data_inicio=${CAPTURED_DAY}&data_fim=2026-08-16&limit=100${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.items as any[];
};
const all = await search('');

test(
  'every publication keeps its publication day (null for the one divulged after the last edition), its divulgação instant in ' +
    'Brasília, every party with polo and category',
  () => {
    assert.deepEqual(
      all.map((p) => [p.id, p.processo, p.dataDivulgacao, p.dataHoraDivulgacao, p.dataPublicacao]),
      [
        ['993200', 'Pet 14912', AFTER_LAST_EDITION, '2026-08-15T10:15:30.000-03:00', null],
        ['993077', 'Pet 16560', CAPTURED_DAY, '2026-08-13T20:32:00.645-03:00', '2026-08-14'],
        ['993076', 'RHC 274604', CAPTURED_DAY, '2026-08-13T20:30:03.093-03:00', '2026-08-14'],
        ['993075', 'RHC 275593', CAPTURED_DAY, '2026-08-13T20:30:02.616-03:00', '2026-08-14'],
        ['993074', 'Pet 15758', CAPTURED_DAY, '2026-08-13T20:30:03.600-03:00', '2026-08-14'],
        ['993073', 'Pet 14912', CAPTURED_DAY, '2026-08-13T20:30:02.858-03:00', '2026-08-14'],
      ],
    );
    const byId = new Map(all.map((p) => [p.id, p]));
    assert.deepEqual(
      byId.get('993076').envolvidos.map((e: any) => [e.nome, e.polo, e.categoria, e.oabs]),
      [
        ['N.S.A.F.', 'ATIVO', 'RECORRENTE(S)', []],
        ['Geraldo Kautzner Marques e Outro(a/s)', 'ATIVO', 'ADVOGADO(A/S)', ['RJ76166']],
        ['Ministério Público Militar', 'PASSIVO', 'RECORRIDO(A/S)', []],
        ['Procurador-geral da República', 'PASSIVO', 'PROCURADOR(ES)', []],
      ],
    );
    assert.equal(byId.get('993075').envolvidos.length, 7, 'every party');
    assert.deepEqual(
      [byId.get('993077').relator, byId.get('993077').tipoConteudo, byId.get('993077').confidencialidade, byId.get('993077').codigo],
      ['MIN. GILMAR MENDES', 'Publicação Monocrática', 'Público', 'decisoes-monocraticas:601509'],
    );
  },
);

test('every lawyer with every OAB of every notation; the placeholder "Sem Representação nos Autos" is listed but is no lawyer', () => {
  const lawyers = Object.fromEntries(
    all.filter((p) => p.dataDivulgacao === CAPTURED_DAY).map((p) => [p.id, p.advogados.map((a: any) => [a.nome, a.polo, a.oabs])]),
  );
  assert.deepEqual(lawyers, {
    993077: [['Lucas Gabriel Correa Nogueira', 'ATIVO', ['PA27882']]],
    993076: [['Geraldo Kautzner Marques e Outro(a/s)', 'ATIVO', ['RJ76166']]],
    993075: [['Anderson da Silva Marques', 'ATIVO', ['ES30684']]],
    993074: [
      ['Wilibrando Bruno Albuquerque de Araújo', 'ATIVO', ['GO76005A', 'PR130660', 'DF66470']],
      ['Icaro Ruschel Ribas', 'ATIVO', ['PR74027']],
      ['Gabriella Ribeiro Vaz Nogueira', 'ATIVO', ['DF68600']],
    ],
    993073: [['Flavio Henrique Unes Pereira', 'ATIVO', ['DF31442', 'MG83471', 'RJ261006', 'SP518968']]],
  });
  const last = all.find((p) => p.id === '993073');
  assert.deepEqual(last.envolvidos.at(-1), { nome: 'Sem Representação nos Autos', polo: 'PASSIVO', categoria: 'ADVOGADO(A/S)', identificacoes: [], oabs: [] });
  assert.deepEqual(last.envolvidos[1].identificacoes, ["OAB's (31442/DF, 83471/MG, 261006/RJ, 518968/SP)"]);
});

test('a search by any OAB of a list, in any spelling, finds the publication; a lettered registration only by its letter', async () => {
  const ids = async (oab: string) => (await search(`&oab=${encodeURIComponent(oab)}`)).map((p) => p.id);
  for (const oab of ['SP518968', '518968/SP', 'OAB/SP 518.968', 'DF31442', 'MG83471', 'RJ261006']) assert.deepEqual(await ids(oab), ['993200', '993073'], oab);
  for (const oab of ['GO76005A', '76005-A/GO', '76005 A/GO', 'A76005/GO']) assert.deepEqual(await ids(oab), ['993074'], oab);
  assert.deepEqual(await ids('GO76005'), [], 'GO76005 is another registration');
  assert.deepEqual(await ids('RJ076166'), ['993076']);
  const one = json(await get(acc, '/v1/stf/publicacoes/993073')).data;
  assert.deepEqual(one.advogados[0].oabs, ['DF31442', 'MG83471', 'RJ261006', 'SP518968']);
});

test("publication monitors on any OAB of a list hear the publication (STF only where fontes say so); the lawyers' endpoint lists it", async () => {
  const events = await heard();
  assert.deepEqual(events.get(monitors.list), ['STF:993073', 'STF:993200']);
  assert.deepEqual(events.get(monitors.listOther), ['STF:993073', 'STF:993200']);
  assert.deepEqual(events.get(monitors.lettered), ['STF:993074']);
  assert.deepEqual(events.get(monitors.padded), ['STF:993076']);
  assert.equal(events.get(monitors.bareNumber), undefined);
  assert.deepEqual(await heard(other), new Map(), 'a monitor of the same OAB watching DJEN only hears no STF publication');
  const diarios = json(await get(acc, '/v1/advogados/diarios-oficiais?oab=SP518968&limit=100')).data.items.map((p: any) => p.id);
  assert.ok(
    ['STF:993200', 'STF:993073'].every((id) => diarios.includes(id)),
    diarios.join(),
  );
});

test(
  'a day read before its edition was out is read again once /ultimo-dje ' + 'moves past it: the publication day is filled, nothing is announced twice',
  async () => {
    replay.ultimoDje = Buffer.from('"2026-08-17"');
    replay.days[AFTER_LAST_EDITION] = [unpublishedPage(AFTER_LAST_EDITION, { publicacao: '2026-08-17' })];
    clock.set('2026-08-17T15:00:00.000Z');
    replay.searches.length = 0;
    const items = await search('&oab=SP518968');
    assert.deepEqual(
      items.map((p) => [p.id, p.dataPublicacao]),
      [
        ['993200', '2026-08-17'],
        ['993073', '2026-08-14'],
      ],
    );
    assert.deepEqual([...new Set(replay.searches.map((s) => s.day))], [AFTER_LAST_EDITION], 'only the day that waited for its edition');
    const events = await heard();
    assert.deepEqual(events.get(monitors.list), ['STF:993073', 'STF:993200'], 'no second event');
  },
);
