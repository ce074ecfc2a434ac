/**
 * An appeal keeps its origin number (issue 52 item 3): when DataJud lists a G2 instance of a case of an
 * e-SAJ court, the court's 2nd degree (`cposg`) is read too, and its parties, relator and movements with
 * their texts are merged into the case by instance, through the real connector on a lookup and on a
 * refresh. DataJud is the sandbox's (TJSP cases with G1 and G2 instances); the court is a loopback
 * stand-in for esaj.tjsp.jus.br serving real captures: the 1st degree's page (esaj-1.html), the 2nd
 * degree's list (TJSP's "Selecione o processo" modal, and TJCE's list of two appeals under one number)
 * and the 2nd degree's page (the TJAL cposg capture). The stand-in's only edit: each page's own case
 * number is replaced by the number asked, as the pages belong to other cases.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createHarness, json, type TestAccount } from './harness.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';

const fixture = (name: string) => readFileSync(new URL(`../src/sources/consultas/fixtures/${name}`, import.meta.url), 'utf8');
const FIRST = { page: fixture('esaj-1.html'), numero: '1000149-71.2024.8.26.0346' };
const SECOND = { page: fixture('set3/tjal_esaj_cposg_detalhe_0710802-55.2018.8.02.0001.html'), numero: '0710802-55.2018.8.02.0001' };
const MODAL = { page: fixture('set2/tjsp_esaj_cposg_lista.html'), numero: '2327387-09.2025.8.26.0000' };
const DUPLICATE = { page: fixture('set3/tjce_esaj_cposg_lista_numero_duplicado.html'), numero: '0105299-54.2015.8.06.0112' };

/** A capture as the page of `numero`: its own number, masked or in digits, replaced. */
const as = (capture: { page: string; numero: string }, numero: string) =>
  capture.page
    .replaceAll(capture.numero, formatCnj(numero))
    .replaceAll(capture.numero.slice(0, 15), formatCnj(numero).slice(0, 15))
    .replaceAll(capture.numero.replace(/\D/g, ''), numero);

/** Which 2nd-degree list each number's search answers: the TJSP modal (one appeal) or TJCE's list (two under one number). */
const secondDegreeList = new Map<string, typeof MODAL>();
const CUT = { page: '', numero: '' };
const requests: string[] = [];

const page = (res: http.ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8' }).end(body);
const NOT_FOUND =
  '<html><body><form id="formConsulta"></form><td id="mensagemRetorno">Não existem informações disponíveis para os parâmetros informados.</td></body></html>';

/** The stand-in for esaj.tjsp.jus.br: cpopg (search → 302 → the 1st degree's page) and cposg (search → list → each appeal's page). */
const tjsp = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  requests.push(url.pathname);
  if (url.pathname.endsWith('/open.do')) return res.writeHead(200, { 'set-cookie': 'JSESSIONID=t1', 'content-type': 'text/html' }).end('<html></html>');
  if (url.pathname === '/cpopg/search.do') {
    const n = (url.searchParams.get('dadosConsulta.valorConsultaNuUnificado') ?? '').replace(/\D/g, '');
    return res.writeHead(302, { location: `/cpopg/show.do?processo.codigo=X${n}&processo.foro=346` }).end();
  }
  if (url.pathname === '/cpopg/show.do') return page(res, as(FIRST, url.searchParams.get('processo.codigo')!.slice(1)));
  if (url.pathname === '/cposg/search.do') {
    const n = (url.searchParams.get('dePesquisaNuUnificado') ?? '').replace(/\D/g, '');
    const list = secondDegreeList.get(n);
    if (list === CUT) return page(res, '<html><body><div id="listagemDeProcessos">'); // a page cut short in transit
    if (!list) return page(res, NOT_FOUND);
    // The appeal's code carries the number, so its page says which case it is.
    return page(res, as(list, n).replaceAll('processo.codigo=', `processo.codigo=${n}-`).replaceAll('value="RI0093NLD', `value="${n}-RI0093NLD`));
  }
  if (/^\/cposg5?\/show\.do$/.test(url.pathname)) return page(res, as(SECOND, url.searchParams.get('processo.codigo')!.split('-')[0]!));
  page(res, NOT_FOUND);
});
await new Promise<void>((r) => tjsp.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJSP',
    TRAMITA_CONSULTA_TJSP_URL: `http://127.0.0.1:${(tjsp.address() as AddressInfo).port}`,
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s',
  },
});
after(async () => {
  await h.close();
  tjsp.close();
});

const now = h.services.clock.now().getTime();
const visible = (c: SandboxCase) => h.sources.sandbox!.dataset.visibleCase(c.numero, now) === c;
const tjspCases = h.sources.sandbox!.dataset.cases.filter((c) => c.court.sigla === 'TJSP' && visible(c));
const appealed = tjspCases.filter((c) => c.instances.some((i) => i.grau === 'G2') && c.instances.some((i) => i.grau === 'G1'));
const firstOnly = tjspCases.find((c) => c.instances.length === 1 && c.instances[0]!.grau === 'G1');

/** The appeal's parties as the TJAL capture lists them (its ground truth), roles read without the colon. */
const APPEAL_PARTIES = [
  ['ATIVO', 'Apelante', 'Cony Engenharia Ltda.'],
  ['ATIVO', 'Apelante', 'Banco do Brasil S A'],
  ['PASSIVO', 'Apelado', 'Mevio Tulio Exemplo Amostra Filho'],
  ['PASSIVO', 'Apelada', 'Ticiana Modelo da Amostra'],
];

type Party = { polo: string; tipo: string; nome: string; grau?: string; advogados: { nome: string; oab: string | null }[] };

async function cover(acc: TestAccount, numero: string) {
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

async function allMovements(acc: TestAccount, numero: string) {
  const items: { nome: string; data: string; grau: string; codigo: string; texto: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({
      method: 'GET',
      url: `/v1/processos/cnj/${numero}/movimentacoes?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      headers: acc.headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    items.push(...json(res).data.movimentacoes);
    cursor = json(res).meta.pagination.nextCursor;
  } while (cursor);
  return items;
}

/** Both degrees on the cover and in the movements: the 1st degree's 8 parties and 118 movements, the appeal's 4 parties, relator and 79 movements. */
async function assertBothDegrees(acc: TestAccount, numero: string, appeals: number) {
  const d = await cover(acc, numero);
  const partes = d.partes as Party[];
  const first = partes.filter((p) => p.grau === 'G1');
  const second = partes.filter((p) => p.grau === 'G2');
  assert.equal(first.length, 8, JSON.stringify(partes));
  assert.equal(first[0]!.nome, 'Benedita Ficticia');
  assert.deepEqual(
    second.map((p) => [p.polo, p.tipo, p.nome]),
    APPEAL_PARTIES,
    'the appeal’s parties once, however many appeals list them',
  );
  assert.equal(partes.length, 12);
  assert.ok(second[0]!.advogados.some((a) => a.nome === 'Carlos Henrique de Mendonça Brandão'));
  // Each instance of the process object lists its own degree's parties.
  const fontes = d.fontes as { grau: number; envolvidos: { nome: string }[] }[];
  assert.deepEqual(
    fontes.map((f) => [f.grau, f.envolvidos.length]),
    [
      [1, 8],
      [2, 4],
    ],
  );
  assert.equal(fontes[1]!.envolvidos[0]!.nome, 'Cony Engenharia Ltda.');
  assert.equal(d.titulo_polo_ativo, 'Benedita Ficticia', "the case's plaintiff is the 1st degree's");
  // The appeal's cover: relator, órgão julgador, seção.
  assert.equal(d.consultaPublica.grau, 1);
  assert.equal(d.consultaPublica.orgao, '2ª Vara Judicial');
  assert.equal(d.consultaPublica.segundoGrau.length, appeals);
  for (const appeal of d.consultaPublica.segundoGrau) {
    assert.equal(appeal.instancia, 'G2');
    assert.equal(appeal.grau, 2);
    assert.equal(appeal.juiz, 'VICE PRESIDENTE DO TRIBUNAL DE JUSTIÇA DE ALAGOAS');
    assert.equal(appeal.orgao, 'Vice-Presidência');
    assert.equal(appeal.foro, 'Tribunal de Justiça');
    assert.equal(appeal.classe, 'Apelação Cível');
    assert.equal(appeal.movimentos, undefined, 'movements are listed by /movimentacoes, not on the cover');
  }

  const items = await allMovements(acc, numero);
  // The pages' own rows (no TPU code): the appeal's 79, none taken for a 1st-degree movement.
  assert.equal(items.filter((m) => m.grau === 'G2' && m.codigo === '').length, 79);
  assert.equal(items.filter((m) => m.grau === 'G1' && m.codigo === '').length + items.filter((m) => m.grau === 'G1' && m.codigo !== '' && m.texto).length, 118);
  const g2 = items.filter((m) => m.grau === 'G2' && m.nome === 'Certidão de Envio ao 1º Grau');
  assert.equal(g2.length, 1, 'the appeal’s movement once, with its text');
  assert.equal(g2[0]!.texto, 'Faço remessa dos presentes autos à Origem.');
  assert.equal(g2[0]!.data, '26/04/2023');
  const oldest = items.find((m) => m.grau === 'G2' && m.nome === 'Recebidos os Autos pela Entrada de Recursos');
  assert.equal(oldest?.texto, 'Foro de origem: Foro de Maceió\nVara de origem: 4ª Vara Cível da Capital');
  const g1 = items.find((m) => m.grau === 'G1' && m.nome === 'Arquivado Definitivamente');
  assert.ok(g1, "the 1st degree's page movements are there too");
  return d;
}

test('a lookup of a case DataJud lists with G1 and G2: both degrees’ parties, the relator and both pages’ movements with their texts', async () => {
  const c = appealed[0];
  assert.ok(c, 'a TJSP sandbox case with G1 and G2 instances');
  secondDegreeList.set(c.numero, MODAL);
  requests.length = 0;
  const acc = await h.createAccount({ credits: 1000 });
  await assertBothDegrees(acc, c.numero, 1);
  // open, search, the appeal's page: on the same host as the 1st degree's (its budget).
  assert.deepEqual(
    requests.filter((p) => p.startsWith('/cposg')),
    ['/cposg/open.do', '/cposg/search.do', '/cposg/show.do'],
  );
});

test('a refresh reads the 2nd degree too, and opens every appeal listed under the number (two in TJCE’s list)', async () => {
  const c = appealed[1];
  assert.ok(c, 'a second TJSP sandbox case with G1 and G2 instances');
  secondDegreeList.set(c.numero, DUPLICATE);
  const acc = await h.createAccount({ credits: 1000 });
  // A cover without waiting for the details (Prefer: return=minimal): DataJud's case stored, the page not read yet.
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: { ...acc.headers, prefer: 'return=minimal' } });
  assert.equal(res.statusCode, 200, res.body);
  await h.runJobs(); // the new case's enrichment (it reads both degrees too)
  requests.length = 0;
  const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(asked.statusCode, 200, asked.body);
  await h.runJobs();
  const status = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/status-atualizacao`, headers: acc.headers })).data;
  assert.equal(status.status, 'CONCLUIDA', JSON.stringify(status));
  assert.equal(status.novasMovimentacoes, 0, 'the pages read again: nothing new, the appeal’s movements not announced twice');
  assert.equal(requests.filter((p) => p === '/cposg5/show.do').length, 2, `both appeals opened: ${requests.join(' ')}`);
  await assertBothDegrees(acc, c.numero, 2);
});

test('a case DataJud lists with a G1 only: the 2nd degree is not asked, and the parties carry no instance', async () => {
  assert.ok(firstOnly, 'a TJSP sandbox case with one G1 instance');
  requests.length = 0;
  const acc = await h.createAccount({ credits: 1000 });
  const d = await cover(acc, firstOnly.numero);
  assert.equal(d.partes.length, 8);
  assert.ok((d.partes as Party[]).every((p) => p.grau === undefined));
  assert.equal(d.consultaPublica.segundoGrau, undefined);
  assert.deepEqual(
    requests.filter((p) => p.startsWith('/cposg')),
    [],
  );
});

test('the 2nd degree failing: never the 1st degree’s page as the whole case; DJEN stands in, and a refresh once the court mends reads both', async () => {
  const c = appealed[2];
  assert.ok(c, 'a third TJSP sandbox case with G1 and G2 instances');
  secondDegreeList.set(c.numero, CUT);
  const acc = await h.createAccount({ credits: 1000 });
  const d = await cover(acc, c.numero);
  // A consultation's failure: the case's DJEN addressees stand in (issue 32), the court's page is not half-kept.
  assert.equal(d.consultaPublica, null);
  assert.ok((d.partes as (Party & { fonte: string })[]).every((p) => p.fonte === 'DJEN' && p.grau === undefined));
  secondDegreeList.set(c.numero, MODAL);
  const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(asked.statusCode, 200, asked.body);
  await h.runJobs();
  await assertBothDegrees(acc, c.numero, 1);
});

test('an appeal first read beside a known first degree is its baseline: stored, not announced as news', async () => {
  const c = appealed[3];
  assert.ok(c, 'a fourth TJSP sandbox case with G1 and G2 instances');
  const acc = await h.createAccount({ credits: 1000 });
  // The 2nd degree lists nothing under the number yet: the first degree's page alone.
  const first = await cover(acc, c.numero);
  assert.equal(first.consultaPublica.segundoGrau, undefined);
  assert.ok((first.partes as Party[]).every((p) => p.grau === undefined));
  secondDegreeList.set(c.numero, MODAL);
  const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(asked.statusCode, 200, asked.body);
  await h.runJobs();
  const status = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/status-atualizacao`, headers: acc.headers })).data;
  assert.equal(status.status, 'CONCLUIDA', JSON.stringify(status));
  assert.equal(status.novasMovimentacoes, 0, 'the appeal’s 79 movements are its history, not news');
  await assertBothDegrees(acc, c.numero, 1);
});
