/**
 * The simulated STF answers with the structure of the real one (DESIGN.md §5): each route's answer over
 * HTTP compared with its capture (src/sources/stf/fixtures, from reference/upstream/real/) by the
 * structural comparator (sandbox/parity.ts): keys in order, types, ISO dates, nesting. A simulator
 * back on `dd/mm/aaaa`, on `agregacoes: {}` or on a bare `{userMessage}` fails here.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { stfCapture } from '../../sources/stf/testing.ts';
import { structuralDifferences, type ParityOptions } from '../parity.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { stfClient } from './testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const BRT = 3 * 3_600_000;

/**
 * What the real API sends that one captured day cannot show (README §6): `publicacao` and
 * `tipoPronunciamentoId` may be null; acórdãos carry a colegiado and a sessão (the `Colegiado` and
 * `Sessão` aggregations name them: `Plenário`, `26-2026`), null in the five monocratic items captured.
 */
const SEARCH: ParityOptions = {
  alsoAllowed: {
    'publicacoes[].publicacao': ['null'],
    'publicacoes[].tipoPronunciamentoId': ['null'],
    'publicacoes[].colegiado': ['string:text'],
    'publicacoes[].sessao': ['string:text'],
  },
};

async function search(body: Record<string, unknown>) {
  const client = stfClient(sb);
  const res = await client.search(await client.handshake(), body);
  return { status: res.status, body: JSON.parse(res.text) };
}

/** The week up to the sandbox's today (Brasília): published days and today's unpublished items. */
function week() {
  const end = Date.parse(`${new Date(sb.clock.now().getTime() - BRT).toISOString().slice(0, 10)}T00:00:00Z`) + BRT;
  return { data: end - 7 * 86_400_000, dataFim: end + 86_400_000 - 1 };
}

test('GET /ultimo-dje is a bare JSON string day, as stf-4.json', async () => {
  const s = await stfClient(sb).handshake();
  assert.equal(s.status, 200);
  assert.deepEqual(structuralDifferences(stfCapture('stf-4'), s.day), []);
});

test(
  'POST /publicacoes answers with the structure of stf-1.json: agregacoes groups, 18 keys per item in order, ISO ' +
    'dates, envolvidos and their identificacoes',
  async () => {
    const page = await search(week());
    assert.equal(page.status, 200);
    assert.deepEqual(structuralDifferences(stfCapture('stf-1'), page.body, SEARCH), []);
    const items = page.body.publicacoes as any[];
    assert.ok(items.some((i) => i.publicacao === null) && items.some((i) => i.publicacao !== null), 'published items and items not yet published');
    assert.ok(
      items.some((i) => i.envolvidos.some((e: any) => e.polo === 'INTERESSADO')),
      'INTERESSADO parties',
    );
    assert.ok(
      items.some((i) => i.envolvidos.some((e: any) => e.identificacoes.some((x: string) => x.startsWith("OAB's (")))),
      'lists of OABs',
    );
    assert.ok(new Set(items.map((i) => /\.(\d+)$/.exec(i.divulgacao)?.[1].length ?? 0)).size >= 3, '0–3 decimals');
  },
);

test('a page past the end answers as stf-2.json (no items, total 0, the same agregacoes); a quantidade over 500 as stf-3.json (422)', async () => {
  const past = await search({ ...week(), pagina: 999 });
  assert.deepEqual([past.status, past.body.publicacoes.length, past.body.total], [200, 0, 0]);
  assert.deepEqual(structuralDifferences(stfCapture('stf-2'), past.body), []);
  const refused = await search({ ...week(), quantidade: 1000 });
  assert.equal(refused.status, 422);
  assert.deepEqual(refused.body, stfCapture('stf-3'), 'the real body, values included');
});

test("the comparator catches the simulator's old spellings: dates as dd/mm/aaaa, agregacoes as an object", async () => {
  const page = (await search(week())).body;
  const br = (iso: string | null) => iso?.slice(0, 10).split('-').reverse().join('/') ?? null;
  const old = { ...page, publicacoes: page.publicacoes.map((i: any) => ({ ...i, divulgacao: br(i.divulgacao), publicacao: br(i.publicacao) })) };
  assert.ok(structuralDifferences(stfCapture('stf-1'), old, SEARCH).some((d) => /divulgacao: the simulator sends string:br-date/.test(d)));
  assert.ok(structuralDifferences(stfCapture('stf-1'), { ...page, agregacoes: {} }, SEARCH).some((d) => /^agregacoes: the simulator sends object/.test(d)));
});
