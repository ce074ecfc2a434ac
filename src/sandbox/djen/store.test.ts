/** The DJEN simulator's communications in process: determinism, shape, spellings, visibility, ids. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ManualClock } from '../../platform/clock.ts';
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import { generateDataset } from '../data/dataset.ts';
import { brasiliaDayOf, isoDay } from './dates.ts';
import { hashOfId, idOfHash, idOfRank, rankOfId } from './ids.ts';
import { oabMatchKey, spellOab } from './oab.ts';
import { renderItem } from './render.ts';
import { matchingRefs, parseQuery, reportedCount } from './search.ts';
import { DjenStore } from './store.ts';

const ANCHOR = '2026-03-10T00:00:00.000Z';
// The real sample, as the connector's fixtures keep it (a copy of reference/upstream/djen-comunicacao-sample.json).
const SAMPLE = new URL('../../sources/djen/fixtures/djen-comunicacao-sample.json', import.meta.url);

function build(seed = 11, cases = 300, clock = new ManualClock(ANCHOR)) {
  const dataset = generateDataset({ cases, seed, clock });
  return { dataset, store: new DjenStore(dataset), clock };
}

const query = (qs: string) => parseQuery(new URLSearchParams(qs));

test('same seed and size give the same communications, item by item', () => {
  const a = build();
  const b = build();
  assert.ok(a.store.table.count > 300, `${a.store.table.count} communications for 300 cases`);
  assert.equal(a.store.table.count, b.store.table.count);
  for (let p = 0; p < a.store.table.count; p += 7) assert.deepEqual(renderItem(a.store.resolve(p)), renderItem(b.store.resolve(p)));
  const other = build(12);
  assert.notDeepEqual(renderItem(other.store.resolve(0)), renderItem(a.store.resolve(0)));
});

test("items have the real sample's keys, in its order, with its value types", () => {
  const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')).items[0];
  const { store } = build();
  const item = renderItem(store.resolve(store.table.posOf[store.table.count - 1]));
  assert.deepEqual(Object.keys(item), Object.keys(sample));
  assert.deepEqual(Object.keys(item.destinatarios[0]), Object.keys(sample.destinatarios[0]));
  assert.deepEqual(Object.keys(item.destinatarioadvogados[0]), Object.keys(sample.destinatarioadvogados[0]));
  assert.deepEqual(Object.keys(item.destinatarioadvogados[0].advogado), Object.keys(sample.destinatarioadvogados[0].advogado));
  for (const key of Object.keys(sample) as (keyof typeof item)[]) {
    if (sample[key] !== null && item[key] !== null) assert.equal(typeof item[key], typeof sample[key], key);
  }
  assert.match(item.hash, /^[0-9A-Za-z]{30}$/);
  assert.match(item.data_disponibilizacao, /^\d{4}-\d{2}-\d{2}$/);
  assert.match(item.datadisponibilizacao, /^\d{2}\/\d{2}\/\d{4}$/);
  assert.equal(parseCnj(item.numeroprocessocommascara).digits, item.numero_processo);
  assert.match(item.destinatarioadvogados[0].created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  assert.ok(item.destinatarios.every((d) => (d.polo === 'A' || d.polo === 'P') && d.comunicacao_id === item.id));
});

test('the mix: mostly Intimação, the other kinds present, ~2% cancelled, eproc headers name lawyers with OAB', () => {
  const { store } = build(11, 1000);
  const items = Array.from({ length: store.table.count }, (_, p) => renderItem(store.resolve(p)));
  const tipos = new Map<string, number>();
  for (const i of items) tipos.set(i.tipoComunicacao, (tipos.get(i.tipoComunicacao) ?? 0) + 1);
  assert.ok(tipos.get('Intimação')! > items.length / 2, JSON.stringify([...tipos]));
  for (const t of ['Lista de distribuição', 'Pauta de julgamento', 'Citação']) assert.ok(tipos.has(t), t);
  const cancelled = items.filter((i) => !i.ativo);
  assert.ok(cancelled.length > 0 && cancelled.length < items.length * 0.05, `${cancelled.length} cancelled`);
  assert.ok(cancelled.every((i) => i.data_cancelamento && i.motivo_cancelamento));
  assert.ok(items.filter((i) => i.ativo).every((i) => i.data_cancelamento === null && i.motivo_cancelamento === null));
  const eproc = items.find((i) => i.texto.includes('divHeader') && i.destinatarioadvogados.length > 0)!;
  const a = eproc.destinatarioadvogados[0].advogado;
  assert.ok(
    eproc.texto.includes(`<tr><td>ADVOGADO(A)</td><td>: ${a.nome} (OAB ${a.uf_oab}${oabMatchKey(a.numero_oab).replace(/\./g, '').padStart(6, '0')})</td></tr>`),
    eproc.texto,
  );
  const tjrj = items.find((i) => i.siglaTribunal === 'TJRJ');
  if (tjrj) assert.ok(tjrj.link === null && tjrj.texto.includes('\n\r') && !tjrj.texto.includes('<'));
  assert.ok(items.every((i) => /ficticia|fictícia/i.test(i.texto)));
});

test('OAB spellings and the matching rule: UF prefix and zeros stripped, the dot kept', () => {
  assert.equal(spellOab('RS', '57689', 'plain'), '57689');
  assert.equal(spellOab('RS', '57689', 'padded'), '057689');
  assert.equal(spellOab('RS', '57689', 'prefixed'), 'RS057689');
  assert.equal(spellOab('RS', '57689', 'dotted'), '57.689');
  assert.equal(spellOab('SP', '1234567', 'dotted'), '1.234.567');
  for (const s of ['57689', '057689', 'RS057689', 'rs57689']) assert.equal(oabMatchKey(s), '57689');
  assert.equal(oabMatchKey('57.689'), '57.689');

  const { store, dataset } = build(11, 300);
  const today = brasiliaDayOf(dataset.now());
  const lawyer = store.lawyersByCases()[0].lawyer.oab!;
  const plain = matchingRefs(store, query(`numeroOab=${lawyer.numero}&ufOab=${lawyer.uf}`), today);
  const padded = matchingRefs(store, query(`numeroOab=RS${lawyer.numero.padStart(7, '0')}&ufOab=${lawyer.uf}`), today);
  const dotted = matchingRefs(store, query(`numeroOab=${spellOab(lawyer.uf, lawyer.numero, 'dotted')}&ufOab=${lawyer.uf}`), today);
  assert.ok(plain.length > 0 && dotted.length > 0, `${plain.length} plain, ${dotted.length} dotted`);
  assert.deepEqual(padded, plain, 'prefix and zeros do not matter');
  assert.equal(new Set([...plain, ...dotted]).size, plain.length + dotted.length, 'the two spellings find disjoint sets');
  const numbers = (refs: number[]) =>
    refs.map(
      (r) =>
        renderItem(store.resolve(r)).destinatarioadvogados.find(
          (d) => d.advogado.uf_oab === lawyer.uf && d.advogado.numero_oab.replace(/\D/g, '').replace(/^0+/, '') === lawyer.numero,
        )!.advogado.numero_oab,
    );
  assert.ok(numbers(dotted).every((n) => n.includes('.')));
  assert.ok(numbers(plain).every((n) => !n.includes('.')));
  assert.ok(new Set(numbers(plain)).size >= 2, 'plain, padded and prefixed spellings all appear');
});

test("communications dated after the clock's day appear as the clock passes them", () => {
  const { store, dataset, clock } = build(11, 300);
  const t = store.table;
  const today = brasiliaDayOf(dataset.now());
  const future = Array.from({ length: t.count }, (_, p) => p).find((p) => t.day[p] > today)!;
  assert.ok(future !== undefined, 'some communications lie in the future');
  const c = store.resolve(future);
  const byCase = () => matchingRefs(store, query(`numeroProcesso=${c.numero}`), brasiliaDayOf(dataset.now()));
  assert.ok(!byCase().includes(future));
  assert.equal(store.byId(c.id, brasiliaDayOf(dataset.now())), null);
  clock.set(`${isoDay(c.day)}T12:00:00.000Z`);
  assert.ok(byCase().includes(future));
  assert.equal(store.byId(c.id, brasiliaDayOf(dataset.now()))?.id, c.id);
  assert.ok(matchingRefs(store, query('itensPorPagina=5'), today).every((r) => t.day[r] <= today));
});

test('ids grow with time; hashes embed the id and resolve back', () => {
  const { store } = build();
  const t = store.table;
  for (let r = 1; r < t.count; r++) assert.ok(t.day[t.posOf[r]] >= t.day[t.posOf[r - 1]]);
  for (const rank of [0, 1, 2, 1000, 123_456]) assert.equal(rankOfId(idOfRank(rank)), rank);
  assert.ok(
    [1, 2, 3].every((d) => rankOfId(idOfRank(5) + d) !== 5),
    'one id per rank',
  );
  assert.equal(rankOfId(123), null);
  const id = idOfRank(42);
  const hash = hashOfId(11, id);
  assert.equal(idOfHash(11, hash), id);
  assert.equal(idOfHash(12, hash), null, 'another seed does not accept it');
  assert.equal(idOfHash(11, `${hash.slice(0, 29)}${hash[29] === 'a' ? 'b' : 'a'}`), null);
});

test('count lies like the real one; the filter rule; results newest first', () => {
  assert.equal(reportedCount(query('siglaTribunal=TJSP&itensPorPagina=100'), 37), 37);
  assert.equal(reportedCount(query('siglaTribunal=TJSP&itensPorPagina=101'), 37), 101);
  assert.equal(reportedCount(query('siglaTribunal=TJSP&dataDisponibilizacaoInicio=2026-03-09&dataDisponibilizacaoFim=2026-03-09'), 12), 10_000);
  assert.equal(reportedCount(query('siglaTribunal=TJSP&texto=x&dataDisponibilizacaoInicio=2026-03-09&dataDisponibilizacaoFim=2026-03-09'), 12), 12);
  assert.throws(() => query('itensPorPagina=6'), /ao menos um/);
  assert.throws(() => query('dataDisponibilizacaoInicio=2026-01-01'), /ao menos um/);
  assert.doesNotThrow(() => query('itensPorPagina=5'));
  assert.throws(() => query('siglaTribunal=TJSP&itensPorPagina=1001'), /itensPorPagina/);
  assert.throws(() => query('numeroProcesso=123'), /numeroProcesso/);
  assert.throws(() => query('siglaTribunal=TJSP&dataDisponibilizacaoInicio=2026-02-30'), /yyyy-mm-dd/);
});

// Its build time is measured by the bench (bench/sandbox-start.ts): timing never belongs in a test.
test('20,000 cases: the communications table stays under 60 MB', (t) => {
  const dataset = generateDataset({ cases: 20_000, seed: 1, clock: new ManualClock(ANCHOR) });
  const store = new DjenStore(dataset);
  // The table is what stays (the lawyer index is a few thousand numbers); heap deltas without a forced GC are noise.
  const mb = store.table.bytes() / 1e6;
  t.diagnostic(`${store.table.count} communications, table ${mb.toFixed(1)} MB`);
  assert.ok(mb < 60, `${mb} MB`);
});
