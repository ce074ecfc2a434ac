/** The generated data set: determinism, valid identifiers, routing, structure, indexes, time. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { courtBySigla } from '../../platform/courts/table.ts';
import { ManualClock } from '../../platform/clock.ts';
import { cnjCourtSigla, parseCnj } from '../../platform/identifiers/cnj.ts';
import { isValidCnpj, isValidCpf } from '../../platform/identifiers/cpf-cnpj.ts';
import { parseOab } from '../../platform/identifiers/oab.ts';
import { generateDataset, LOOKUP_CAP, type SandboxDataset } from './dataset.ts';
import type { SandboxCase } from './model.ts';
import { foldText } from './text.ts';

const ANCHOR = '2026-03-10T00:00:00.000Z';
const small = (seed = 7, cases = 500) => generateDataset({ cases, seed, clock: new ManualClock(ANCHOR) });

/** Everything that identifies a case, for comparing two generations. */
function fingerprint(c: SandboxCase) {
  return {
    numero: c.numero,
    alias: c.alias,
    valor: c.valorCausaCentavos,
    instances: c.instances.map((i) => [
      i.id,
      i.classe.codigo,
      i.orgao.codigo,
      i.listing.join(','),
      i.movements.map((m) => `${m.type.codigo}@${m.at}`).join(' '),
    ]),
    partes: c.partes.map((p) => [p.polo, p.tipo, p.person.nome, p.person.documento, p.advogados.map((a) => a.oab && a.oab.uf + a.oab.numero)]),
    documentos: c.documentos.map((d) => [d.id, d.tipo, d.juntadaAt]),
  };
}

test('same seed and size give the same cases; another seed gives other cases', () => {
  const a = small(7);
  const b = small(7);
  assert.deepEqual(a.cases.slice(0, 50).map(fingerprint), b.cases.slice(0, 50).map(fingerprint));
  assert.deepEqual(
    a.cases.map((c) => c.numero),
    b.cases.map((c) => c.numero),
  );
  const other = small(8);
  const overlap = other.cases.filter((c) => a.getCase(c.numero)).length;
  assert.ok(overlap < 5, `seed 8 shares ${overlap} numbers with seed 7`);
  assert.notDeepEqual(other.cases.slice(0, 10).map(fingerprint), a.cases.slice(0, 10).map(fingerprint));
});

test('every CNJ number is valid and routes to its own court and DataJud alias', () => {
  const d = small();
  assert.equal(new Set(d.cases.map((c) => c.numero)).size, d.cases.length);
  for (const c of d.cases) {
    const cnj = parseCnj(c.numero);
    const sigla = cnjCourtSigla(cnj.segment, cnj.tribunal);
    assert.equal(sigla, c.court.sigla, c.numero);
    assert.equal(courtBySigla(sigla!)?.datajudAlias, c.alias, c.numero);
    assert.equal(cnj.year, String(new Date(c.instances[0].ajuizadoAt).getUTCFullYear()), c.numero);
    if (c.instances[0].grau === 'SUP') assert.equal(cnj.origin, '0000');
  }
});

test('instances, movements, parties and documents have the documented structure', () => {
  const d = small();
  for (const c of d.cases) {
    assert.ok(c.instances.length >= 1 && c.instances.length <= 3, c.numero);
    assert.ok(['G1', 'JE', 'SUP'].includes(c.instances[0].grau), c.numero);
    assert.equal(c.instances[0].movements[0].type.codigo, 26, `${c.numero} starts with distribuição`);
    assert.equal(new Set(c.instances.map((i) => i.grau)).size, c.instances.length);
    for (const inst of c.instances) {
      assert.ok(inst.movements.length >= 5 && inst.movements.length <= 60, `${inst.id}: ${inst.movements.length} movements`);
      for (let k = 1; k < inst.movements.length; k++) assert.ok(inst.movements[k].at >= inst.movements[k - 1].at, inst.id);
      assert.ok(
        inst.movements.every((m) => m.at % 1000 === 0),
        'whole seconds',
      );
      assert.ok(inst.listing.length >= inst.movements.length);
      assert.deepEqual(
        [...new Set(inst.listing)].sort((x, y) => x - y),
        inst.movements.map((_, k) => k),
      );
    }
    assert.ok(c.partes.some((p) => p.polo === 'ATIVO') && c.partes.some((p) => p.polo === 'PASSIVO'), c.numero);
    assert.ok(c.documentos.length <= 4);
    assert.ok(c.valorCausaCentavos === null || (Number.isSafeInteger(c.valorCausaCentavos) && c.valorCausaCentavos > 0));
  }
  const graus = new Set(d.cases.flatMap((c) => c.instances.map((i) => i.grau)));
  for (const g of ['G1', 'G2', 'JE', 'TR', 'SUP']) assert.ok(graus.has(g as never), `grau ${g} present`);
  assert.ok(
    d.cases.some((c) => c.instances.length === 3),
    'some cases have three instances',
  );
  assert.ok(
    d.cases.some((c) => c.instances.some((i) => i.listing.length > i.movements.length)),
    'some listings repeat a movement',
  );
  assert.ok(d.cases.some((c) => c.valorCausaCentavos === null));
});

test('names are visibly fictitious; CPF, CNPJ and OAB numbers are well formed', () => {
  const d = small();
  for (const p of d.cases.flatMap((c) => c.partes)) {
    const name = foldText(p.person.nome);
    assert.ok(p.person.tipoPessoa === 'FISICA' ? name.includes(' de teste ') : name.includes('ficti'), p.person.nome);
    const doc = p.person.documento;
    if (doc !== null) assert.ok(p.person.tipoPessoa === 'FISICA' ? isValidCpf(doc) : isValidCnpj(doc), `${p.person.nome}: ${doc}`);
    for (const a of p.advogados) {
      assert.ok(foldText(a.nome).includes(' de teste '), a.nome);
      if (a.oab) assert.equal(parseOab(`${a.oab.uf}${a.oab.numero}`).canonical, `${a.oab.uf}${a.oab.numero}`);
    }
  }
});

test('party lookups: by document and by name (accent/case-insensitive), newest first', () => {
  const d = small();
  const ex = d.examples();
  assert.ok(ex.document && ex.name);
  const byDoc = d.casesByDocument(ex.document);
  assert.ok(byDoc.length >= 2, `the example party is in ${byDoc.length} cases`);
  for (const c of byDoc) assert.ok(c.partes.some((p) => p.person.documento === ex.document));
  for (let i = 1; i < byDoc.length; i++) assert.ok(byDoc[i - 1].filedAt >= byDoc[i].filedAt);
  const masked = `${ex.document.slice(0, 3)}.${ex.document.slice(3, 6)}.${ex.document.slice(6, 9)}-${ex.document.slice(9)}`;
  assert.deepEqual(d.casesByDocument(masked), byDoc);
  const shouted = ex.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  const byName = d.casesByName(`  ${shouted} `);
  assert.ok(byDoc.every((c) => byName.includes(c)));
  assert.deepEqual(d.casesByName('Nome Que Nao Existe De Jeito Nenhum'), []);
  assert.deepEqual(d.casesByName('  '), []);
  assert.deepEqual(d.casesByDocument('00000000000'), []);
});

test('items dated after the clock stay invisible until the clock passes them', () => {
  const clock = new ManualClock(ANCHOR);
  const d = generateDataset({ cases: 500, seed: 3, clock });
  const future = d.cases.filter((c) => c.filedAt > d.now());
  const futureMovements = d.cases.flatMap((c) => c.instances.flatMap((i) => i.movements)).filter((m) => m.at > d.now());
  assert.ok(future.length >= 1, 'about 1% of cases lie in the future');
  assert.ok(futureMovements.length > future.length, 'open cases get future movements too');
  assert.equal(d.visibleCase(future[0].numero), undefined);
  assert.ok(futureMovements.every((m) => m.at <= d.anchor.getTime() + 7 * 86_400_000));
  clock.advance(8 * 86_400_000);
  assert.equal(d.visibleCase(future[0].numero), future[0]);
});

test('20,000 cases: all 91 aliases, pooled parties and lawyers, generation time', (t) => {
  const d: SandboxDataset = generateDataset({ cases: 20_000, seed: 1, clock: new ManualClock(ANCHOR) });
  t.diagnostic(`generated 20000 cases in ${d.generationMs.toFixed(0)} ms`);
  assert.equal(new Set(d.cases.map((c) => c.alias)).size, 91);
  assert.deepEqual(new Set(d.cases.map((c) => c.alias)), new Set(d.aliases()));
  const persons = new Set(d.cases.flatMap((c) => c.partes.map((p) => p.person)));
  assert.ok(
    [...persons].some((p) => p.documento && /[A-Z]/.test(p.documento)),
    'some alphanumeric CNPJs',
  );
  const busiest = [...persons].filter((p) => p.documento).sort((a, b) => b.cases.length - a.cases.length)[0];
  assert.ok(busiest.cases.length > 50, `busiest party in ${busiest.cases.length} cases`);
  assert.ok(d.casesByDocument(busiest.documento!).length <= LOOKUP_CAP);
  const lawyerCases = new Map<string, number>();
  for (const c of d.cases)
    for (const p of c.partes)
      for (const a of p.advogados) if (a.oab) lawyerCases.set(a.oab.uf + a.oab.numero, (lawyerCases.get(a.oab.uf + a.oab.numero) ?? 0) + 1);
  assert.ok(Math.max(...lawyerCases.values()) > 50, 'some lawyers appear in many cases');
});
