/**
 * Parties and lawyers of every court (issue 32), through the HTTP surface with the sandbox: a case of a
 * court without an enabled consultation (and outside the provider's courts) takes them from the
 * addressees of its DJEN communications, each with `fonte: DJEN`, no document and no value, asked with
 * the first lookup (issue 43) and refreshed by a refresh; a consultation court's say its consultation; the
 * provider's courts say the provider; a consultation that fails gives way to DJEN.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json } from './harness.ts';
import { foldText } from '../src/platform/matching/fold.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';

// The provider (the sandbox's simulated one) covers TJSP only; TJMA is read through its consultation.
const h = await createHarness({
  env: { TRAMITA_CONSULTAS: 'TJMA', TRAMITA_PORTAL_TRIBUNAIS: 'TJSP', TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s' },
});
after(() => h.close());
const sandbox = h.sources.sandbox!;
const visible = sandbox.dataset.cases.filter((c) => c.filedAt <= sandbox.dataset.now() && c.court.datajudAlias && c.numero.slice(16) !== '0000');
const used = new Set<string>();
function caseOf(courts: (sigla: string) => boolean) {
  const c = visible.find((x) => courts(x.court.sigla) && !used.has(x.numero));
  assert.ok(c, 'a visible sandbox case of such a court');
  used.add(c.numero);
  return c;
}
const closedCourt = (sigla: string) => ['TJBA', 'TJPR'].includes(sigla) || sigla.startsWith('TRT');

type Lawyer = { nome: string; oab: string | null; fonte: string | null };
type Party = { polo: string; nome: string; documento: string | null; fonte: string | null; advogados: Lawyer[] };

async function cover(numero: string, headers: Record<string, string>) {
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

test('a case of a court with no consultation: its DJEN addressees and their lawyers, each with fonte DJEN, no document, no value', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf(closedCourt);
  sandbox.djen.publish({
    numeroProcesso: c.numero,
    destinatarios: [{ nome: 'EMPRESA FICTICIA DE TESTES LTDA', polo: 'P' }],
    advogados: [{ nome: 'ADVOGADA FICTICIA DE TESTES', uf: c.court.ufs[0] ?? 'BA', numero: '98765' }],
  });
  // DJEN asked beside DataJud (issue 43): its addressees come with the first answer.
  const d = await cover(c.numero, acc.headers);
  assert.equal(d.enriquecimento.status, 'CONCLUIDO');
  assert.equal(d.enriquecimento.fonte, 'DJEN');
  assert.equal(d.valor_causa, null, 'DJEN gives no value');
  assert.equal(d.consultaPublica, null);
  const partes = d.partes as Party[];
  const published = partes.find((p) => p.nome === 'EMPRESA FICTICIA DE TESTES LTDA');
  assert.ok(published, JSON.stringify(partes));
  assert.equal(published.polo, 'PASSIVO');
  assert.deepEqual(
    published.advogados.map((l) => [l.oab, l.fonte]),
    [[`${c.court.ufs[0] ?? 'BA'}98765`, 'DJEN']],
  );
  // Every other party is one of the case's own, on its own side, named as DJEN prints it.
  const own = new Map(c.partes.map((p) => [foldText(p.person.nome), p.polo]));
  for (const p of partes) {
    assert.equal(p.fonte, 'DJEN');
    assert.equal(p.documento, null, 'DJEN prints no document: never invented');
    for (const l of p.advogados) assert.equal(l.fonte, 'DJEN');
    if (p !== published) assert.equal(own.get(foldText(p.nome)), p.polo, p.nome);
  }
  const envolvidos = d.fontes[0].envolvidos as { nome: string; fonte: string; cpf: string | null; advogados: { fonte: string }[] }[];
  assert.equal(envolvidos.length, partes.length);
  assert.ok(envolvidos.every((e) => e.fonte === 'DJEN' && e.cpf === null && e.advogados.every((l) => l.fonte === 'DJEN')));
});

test('a communication sent to both poles: its lawyers are listed with the case, pole unknown (polo ADVOGADO), not dropped', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf(closedCourt);
  const uf = c.court.ufs[0] ?? 'BA';
  sandbox.djen.publish({
    numeroProcesso: c.numero,
    destinatarios: [
      { nome: 'AUTORA FICTICIA DOS DOIS POLOS', polo: 'A' },
      { nome: 'RE FICTICIA DOS DOIS POLOS LTDA', polo: 'P' },
    ],
    advogados: [{ nome: 'ADVOGADO FICTICIO SEM POLO', uf, numero: '55501' }],
  });
  await cover(c.numero, acc.headers);
  await h.runJobs();
  const d = await cover(c.numero, acc.headers);
  const partes = d.partes as Party[];
  const lawyer = partes.filter((p) => p.polo === 'ADVOGADO');
  assert.deepEqual(
    lawyer.map((p) => [p.nome, p.documento, p.fonte, p.advogados.map((l) => [l.nome, l.oab, l.fonte])]),
    [['ADVOGADO FICTICIO SEM POLO', null, 'DJEN', [['ADVOGADO FICTICIO SEM POLO', `${uf}55501`, 'DJEN']]]],
    JSON.stringify(partes),
  );
  assert.equal(partes.at(-1)!.polo, 'ADVOGADO', 'after the parties');
  assert.ok(!partes.some((p) => p.polo !== 'ADVOGADO' && p.advogados.some((l) => l.oab === `${uf}55501`)), 'given to no side');
  const envolvido = (d.fontes[0].envolvidos as { nome: string; polo: string; tipo: string }[]).find((e) => e.nome === 'ADVOGADO FICTICIO SEM POLO');
  assert.deepEqual([envolvido?.polo, envolvido?.tipo], ['ADVOGADO', 'Advogado']);
  assert.notEqual(d.titulo_polo_ativo, 'ADVOGADO FICTICIO SEM POLO');
  // Not a party: a search by a party's name does not find the case through the lawyer.
  const found = await h.inject({ method: 'GET', url: '/v1/busca/termo?q=ADVOGADO%20FICTICIO%20SEM%20POLO', headers: acc.headers });
  assert.equal(found.statusCode, 200, found.body);
  assert.ok(!found.body.includes(formatCnj(c.numero)), found.body.slice(0, 300));
});

test('a refresh asks DJEN again: an addressee published since appears', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf(closedCourt);
  sandbox.djen.publish({ numeroProcesso: c.numero, destinatarios: [{ nome: 'PRIMEIRA PARTE FICTICIA', polo: 'A' }] });
  await cover(c.numero, acc.headers);
  await h.runJobs();
  const before = (await cover(c.numero, acc.headers)).partes as Party[];
  assert.ok(before.some((p) => p.nome === 'PRIMEIRA PARTE FICTICIA'));
  sandbox.djen.publish({ numeroProcesso: c.numero, destinatarios: [{ nome: 'SEGUNDA PARTE FICTICIA', polo: 'P' }] });
  const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(asked.statusCode, 200, asked.body);
  await h.runJobs();
  const after = (await cover(c.numero, acc.headers)).partes as Party[];
  assert.ok(
    after.some((p) => p.nome === 'SEGUNDA PARTE FICTICIA' && p.polo === 'PASSIVO' && p.fonte === 'DJEN'),
    JSON.stringify(after),
  );
});

test('a consultation court: every party and lawyer names the consultation', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf((s) => s === 'TJMA');
  await cover(c.numero, acc.headers);
  await h.runJobs();
  const d = await cover(c.numero, acc.headers);
  assert.equal(d.enriquecimento.fonte, 'PJe consulta pública TJMA');
  const partes = d.partes as Party[];
  assert.equal(partes.length, c.partes.length);
  assert.ok(partes.every((p) => p.fonte === 'PJe consulta pública TJMA' && p.advogados.every((l) => l.fonte === 'PJe consulta pública TJMA')));
});

test("a failing consultation gives way to DJEN's addressees", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf((s) => s === 'TJMA');
  sandbox.djen.publish({ numeroProcesso: c.numero, destinatarios: [{ nome: 'PARTE FICTICIA DO DJEN', polo: 'A' }] });
  sandbox.pje.set({ captcha: true, courts: ['TJMA'] });
  try {
    await cover(c.numero, acc.headers);
    await h.runJobs();
  } finally {
    sandbox.pje.reset();
  }
  const d = await cover(c.numero, acc.headers);
  assert.equal(d.enriquecimento.fonte, 'DJEN');
  assert.ok((d.partes as Party[]).some((p) => p.nome === 'PARTE FICTICIA DO DJEN' && p.fonte === 'DJEN'));
});

test("the provider's courts: parties, documents and value from the provider, named by it", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = caseOf((s) => s === 'TJSP');
  await cover(c.numero, acc.headers);
  await h.runJobs();
  const d = await cover(c.numero, acc.headers);
  assert.equal(d.enriquecimento.fonte, 'Portal');
  assert.equal(d.valorCausaCentavos, c.valorCausaCentavos);
  assert.deepEqual(
    (d.partes as Party[]).map((p) => (p.documento === null ? null : p.documento.replace(/\D/g, ''))),
    c.partes.map((p) => p.person.documento),
  );
  assert.ok((d.partes as Party[]).every((p) => p.fonte === 'Portal'));
});
