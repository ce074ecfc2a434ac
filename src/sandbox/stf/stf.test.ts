/**
 * The simulated STF gazette over real HTTP on 127.0.0.1: the CSRF handshake, the search's rules and paging, ultimo-dje as the last edition, the knobs (its
 * structure: parity.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOabList } from '../../platform/identifiers/oab.ts';
import { startTestSandbox, TEST_ANCHOR, type TestSandbox } from '../testing.ts';
import { STF_API_PREFIX } from './server.ts';
import { dayWindow, stfClient } from './testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const api = () => `${sb.stfUrl}${STF_API_PREFIX}`;
const handshake = async () => {
  const s = await stfClient(sb).handshake();
  assert.equal(s.status, 200);
  return s;
};
const search = (...args: Parameters<ReturnType<typeof stfClient>['search']>) => stfClient(sb).search(...args);

test('ultimo-dje is a business day, with the XSRF-TOKEN and JSESSIONID cookies; a search without the token is the 403 with its literal body', async () => {
  const s = await handshake();
  assert.match(s.day, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(![0, 6].includes(new Date(`${s.day}T12:00:00Z`).getUTCDay()));
  const refused = await search(s, dayWindow(s.day), 'wrong');
  assert.deepEqual([refused.status, refused.text], [403, 'An expected CSRF token cannot be found']);
  const ok = await search(s, dayWindow(s.day));
  assert.equal(ok.status, 200);
  const body = JSON.parse(ok.text);
  assert.ok(body.publicacoes.length > 0 && body.total === body.publicacoes.length);
  const item = body.publicacoes[0];
  assert.equal(Object.keys(item).length, 18);
  assert.match(item.divulgacao, new RegExp(`^${s.day}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?$`), 'a Brasília wall time, ISO, no zone');
  assert.match(item.texto, /^<!--\?xml/);
  assert.ok(
    body.publicacoes.every((p: any) =>
      p.envolvidos
        .filter((e: any) => e.categoria === 'ADVOGADO(A/S)' && e.nome !== 'Sem Representação nos Autos')
        .every((e: any) => e.identificacoes.every((i: string) => parseOabList(i).oabs.length > 0 && parseOabList(i).unread.length === 0)),
    ),
    'every identificacao is read whole by the OAB parser',
  );
});

test(
  'ultimo-dje is the last edition, not the last divulgação: on a Sunday it ' + 'says Friday, while a Saturday plantão has items (publicacao null until Monday)',
  async () => {
    const saturday = Date.parse('2026-03-14T00:00:00Z') / 86_400_000;
    const withPlantao = [0, 1, 2, 3, 4, 5, 6, 7].map((w) => saturday + 7 * w).find((d) => sb.stf.gazette.day(d).length > 0)!;
    assert.ok(withPlantao, 'some Saturdays have divulgações');
    const sunday = new Date((withPlantao + 1) * 86_400_000).toISOString().slice(0, 10);
    sb.clock.set(`${sunday}T15:00:00.000Z`);
    try {
      const s = await handshake();
      assert.equal(s.day, new Date((withPlantao - 1) * 86_400_000).toISOString().slice(0, 10), 'Friday');
      const body = JSON.parse((await search(s, dayWindow(new Date(withPlantao * 86_400_000).toISOString().slice(0, 10)))).text);
      assert.ok(body.publicacoes.length > 0 && body.publicacoes.every((p: any) => p.publicacao === null), 'divulged after ultimo-dje, not yet published');
      const friday = JSON.parse((await search(s, dayWindow(s.day))).text);
      assert.ok(
        friday.publicacoes.every((p: any) => p.publicacao === null),
        "Friday's items wait for Monday's edition",
      );
      sb.clock.set(new Date(Date.parse(`${sunday}T15:00:00.000Z`) + 86_400_000).toISOString());
      const monday = JSON.parse((await search(await handshake(), dayWindow(s.day))).text);
      assert.ok(
        monday.publicacoes.every((p: any) => p.publicacao === new Date((withPlantao + 2) * 86_400_000).toISOString().slice(0, 10)),
        'published on Monday',
      );
    } finally {
      sb.clock.set(TEST_ANCHOR);
    }
  },
);

test('the rules: quantidade over 500 and an accented termo are 422; total only on page 1; a termo finds all its words', async () => {
  const s = await handshake();
  const w = dayWindow(s.day);
  assert.deepEqual(JSON.parse((await search(s, { ...w, quantidade: 501 })).text), {
    errors: [{ internalCode: '999.001', userMessage: 'deve ser menor ou igual a 500', moreDetails: 'Erro de validação genérico.', targetName: 'quantidade' }],
    httpCode: 422,
  });
  const accented = await search(s, { ...w, termo: 'ação' });
  assert.equal(accented.status, 422);
  assert.equal(JSON.parse(accented.text).errors[0].targetName, 'termo');
  const all = JSON.parse((await search(s, w)).text);
  const page2 = JSON.parse((await search(s, { ...w, quantidade: 5, pagina: 2 })).text);
  assert.equal(page2.total, 0, 'total is valid on page 1 only');
  assert.deepEqual(
    page2.publicacoes.map((p: any) => p.id),
    all.publicacoes.slice(5, 10).map((p: any) => p.id),
  );
  const someone = all.publicacoes[0].envolvidos[0].nome.split(' ');
  const found = JSON.parse((await search(s, { ...w, termo: `${someone[0]} ${someone.at(-1)}`.normalize('NFD').replace(/[\u0300-\u036f]/g, '') })).text);
  assert.ok(found.publicacoes.some((p: any) => p.id === all.publicacoes[0].id));
});

test('knobs: a WAF challenge is a 202 with x-amzn-waf-action; expired sessions get the 403 until the handshake is redone', async () => {
  const s = await handshake();
  sb.stf.knobs.set({ wafChallenge: true });
  const challenged = await fetch(`${api()}/ultimo-dje`);
  assert.deepEqual([challenged.status, challenged.headers.get('x-amzn-waf-action')], [202, 'challenge']);
  sb.stf.knobs.set({ expireSessions: true });
  assert.equal((await search(s, dayWindow(s.day))).status, 403);
  sb.stf.knobs.reset();
  const again = await handshake();
  assert.equal((await search(again, dayWindow(again.day))).status, 200);
});
