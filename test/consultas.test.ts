/**
 * The courts' public consultations through the HTTP surface (issue 31): a case DataJud does not know
 * answered from the real TJSP page alone (served on loopback as TRAMITA_CONSULTA_TJSP_URL), charged
 * like any cover; a challenge page is an uncharged 503 with its `failure`, never "not found"; a sandbox
 * case of an e-SAJ court gets its value and movement texts through the real connector, merged with
 * DataJud's movements, and one of a PJe court its parties and lawyers with no value; `/v1/integrador`
 * shows each enabled court.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createHarness, json } from './harness.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';

const PAGE = readFileSync(new URL('../src/sources/consultas/fixtures/esaj-1.html', import.meta.url));
const REAL = '1000149-71.2024.8.26.0346';
const CHALLENGED = '1000150-56.2024.8.26.0346';
const CLOUDFLARE = '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body></body></html>';

/** A stand-in for esaj.tjsp.jus.br: the real page for REAL, Cloudflare for CHALLENGED, the not-found notice otherwise. */
const tjsp = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  if (url.pathname === '/cpopg/open.do')
    return res
      .writeHead(200, { 'set-cookie': 'JSESSIONID=t1', 'content-type': 'text/html;charset=UTF-8' })
      .end('<html><body><form id="formConsulta"></form></body></html>');
  const cnj = url.searchParams.get('dadosConsulta.valorConsultaNuUnificado');
  if (url.pathname === '/cpopg/search.do' && cnj === REAL)
    return res.writeHead(302, { location: '/cpopg/show.do?processo.codigo=9M0002CYG0000&processo.foro=346' }).end();
  if (url.pathname === '/cpopg/search.do' && cnj === CHALLENGED) return res.writeHead(403, { 'content-type': 'text/html' }).end(CLOUDFLARE);
  if (url.pathname === '/cpopg/show.do') return res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8' }).end(PAGE);
  res
    .writeHead(200, { 'content-type': 'text/html;charset=UTF-8' })
    .end(
      '<html><body><form id="formConsulta"></form><td id="mensagemRetorno">Não existem informações disponíveis para os parâmetros ' +
        'informados.</td></body></html>',
    );
});
await new Promise<void>((r) => tjsp.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJSP,TJAL,TJDFT,TJMA',
    TRAMITA_CONSULTA_TJSP_URL: `http://127.0.0.1:${(tjsp.address() as AddressInfo).port}`,
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s',
  },
});
after(async () => {
  await h.close();
  tjsp.close();
});

/** Every movement of a case, newest first, page after page. */
async function allMovements(numero: string, headers: Record<string, string>) {
  const items: { nome: string; data: string; codigo: string; texto: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}/movimentacoes?limit=50${cursor ? `&cursor=${cursor}` : ''}`, headers });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    items.push(...body.data.movimentacoes);
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  return items;
}

async function debits(accountId: string) {
  return (await h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').execute()).length;
}

test("a TJSP case DataJud does not know: the cover, parties and 118 movements with text from the court's page alone, charged like any cover", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${REAL}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.equal(d.numeroCnj, REAL);
  assert.equal(d.tribunal, 'TJSP');
  assert.equal(d.classe.nome, 'Procedimento Comum Cível');
  assert.equal(d.valorCausaCentavos, 8_143_978);
  assert.deepEqual(d.valor_causa, { valor: '81439.78', moeda: 'R$', valor_formatado: 'R$ 81.439,78' });
  assert.equal(d.partes.length, 8);
  assert.deepEqual(d.partes[0], {
    polo: 'ATIVO',
    tipo: 'Requerente',
    nome: 'Benedita Ficticia',
    tipoPessoa: 'FISICA',
    documento: null,
    fonte: 'e-SAJ TJSP',
    advogados: [
      { nome: 'Carina Akemi Rezende Nakashima', oab: 'SP355919', oabUf: 'SP', oabNumero: '355919', fonte: 'e-SAJ TJSP' },
      { nome: 'Fabio Cabral Silva de Oliveira Monteiro', oab: 'SP261844', oabUf: 'SP', oabNumero: '261844', fonte: 'e-SAJ TJSP' },
    ],
  });
  assert.equal(d.titulo_polo_ativo, 'Benedita Ficticia');
  assert.equal(d.enriquecimento.status, 'CONCLUIDO');
  assert.equal(d.consultaPublica.fonte, 'consulta-tjsp');
  assert.equal(d.consultaPublica.orgao, '2ª Vara Judicial');
  assert.equal(d.consultaPublica.situacao, 'Extinto');
  assert.deepEqual(
    d.consultaPublica.incidentes.map((i: { numeroCnj: string }) => i.numeroCnj),
    ['00005869520258260346', '00007887220258260346'],
  );
  assert.equal(d.quantidade_movimentacoes, 118);
  assert.equal(await debits(acc.accountId), 1);

  const items = await allMovements(REAL, acc.headers);
  assert.equal(items.length, 118);
  assert.equal(items[0].nome, 'Arquivado Definitivamente');
  assert.equal(items[0].data, '20/03/2026');
  assert.equal(items[1].texto, 'Certidão de Cartório - CUSTAS - Certidão de Pagamento de Custas e Arquivamento - Cível - 61615');
  assert.equal(items.filter((m) => m.texto !== null).length, 99);
  assert.ok(
    items.every((m) => m.codigo === ''),
    'names only: pages give no TPU codes',
  );
});

test('a challenge page is 503 SOURCE_UNAVAILABLE with its failure, uncharged, never "not found"', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${CHALLENGED}`, headers: acc.headers });
  assert.equal(res.statusCode, 503, res.body);
  const body = json(res);
  assert.equal(body.error.code, 'SOURCE_UNAVAILABLE');
  assert.equal(body.error.details.failure, 'anti_bot');
  assert.equal(body.error.details.source, 'consulta-tjsp');
  assert.equal(await debits(acc.accountId), 0);
  const pt = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${CHALLENGED}`, headers: { ...acc.headers, 'accept-language': 'pt-BR' } }));
  assert.match(pt.error.mensagem ?? pt.error.message, /anti-robô/);
});

test("a number the court's page does not know (and DataJud neither) is 404", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: '/v1/processos/cnj/1000151-41.2024.8.26.0346', headers: acc.headers });
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(await debits(acc.accountId), 0);
});

test("a sandbox case of an e-SAJ court: DataJud's cover, then the page's value, parties and texts merged onto DataJud's movements", async () => {
  const sandbox = h.sources.sandbox!;
  const c = sandbox.dataset.cases.find((x) => x.court.sigla === 'TJAL' && x.filedAt <= sandbox.dataset.now() && x.valorCausaCentavos !== null)!;
  assert.ok(c, 'a visible TJAL case with a value');
  const acc = await h.createAccount({ credits: 1000 });
  const first = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${formatCnj(c.numero)}`, headers: acc.headers }));
  const total = first.data.quantidade_movimentacoes;
  await h.runJobs();
  const cover = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers })).data;
  assert.equal(cover.valorCausaCentavos, c.valorCausaCentavos);
  assert.deepEqual(
    cover.partes.map((p: { nome: string }) => p.nome),
    c.partes.map((p) => p.person.nome),
  );
  assert.equal(cover.consultaPublica.fonte, 'consulta-tjal');
  assert.equal(cover.quantidade_movimentacoes, total, 'no movement twice');
  const items = await allMovements(c.numero, acc.headers);
  assert.ok(
    items.some((m) => m.texto && m.codigo !== ''),
    "page texts on DataJud's coded movements",
  );
});

test('a sandbox case of a PJe court: parties and their lawyers with OAB through the real PJe client, and no value (PJe never publishes one)', async () => {
  const sandbox = h.sources.sandbox!;
  const c = sandbox.dataset.cases.find((x) => x.court.sigla === 'TJMA' && x.filedAt <= sandbox.dataset.now() && x.numero.slice(16) !== '0000')!;
  assert.ok(c, 'a visible first-degree TJMA case');
  const acc = await h.createAccount({ credits: 1000 });
  assert.equal((await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers })).statusCode, 200);
  await h.runJobs();
  const cover = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers })).data;
  assert.equal(cover.consultaPublica.fonte, 'consulta-tjma');
  assert.equal(cover.consultaPublica.sistema, 'pje');
  assert.equal(cover.valorCausaCentavos, null, 'never 0');
  assert.deepEqual(cover.partes.map((p: { nome: string }) => p.nome).sort(), c.partes.map((p) => p.person.nome).sort());
  const lawyers = cover.partes.flatMap((p: { advogados: { oab: string | null }[] }) => p.advogados);
  assert.ok(lawyers.length > 0 && lawyers.every((l: { oab: string | null }) => /^[A-Z]{2}\d+[A-Z]?$/.test(l.oab ?? '')), JSON.stringify(lawyers));
});

test('a sandbox case of a PJe court: its public documents listed from the simulated page and read from its viewer (issue 53)', async () => {
  const sandbox = h.sources.sandbox!;
  const now = sandbox.dataset.now();
  const c = sandbox.dataset.cases.find(
    (x) => x.court.sigla === 'TJMA' && x.filedAt <= now && x.numero.slice(16) !== '0000' && x.documentos.some((d) => d.juntadaAt <= now),
  )!;
  assert.ok(c, 'a visible first-degree TJMA case with a public document');
  const acc = await h.createAccount({ credits: 1000 });
  assert.equal(
    (await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers, payload: {} })).statusCode,
    200,
  );
  await h.runJobs();
  const list = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/documentos-publicos`, headers: acc.headers })).data.documentos;
  const visible = c.documentos.filter((d) => d.juntadaAt <= now);
  assert.deepEqual(
    list.map((d: { id: string; titulo: string; fonte: string; origem: string }) => [d.id, d.titulo, d.fonte, d.origem]).sort(),
    visible.map((d) => [d.id, d.titulo, 'consulta-tjma', 'visualizador']).sort(),
  );
  const text = await h.inject({
    method: 'GET',
    url: `/v1/processos/cnj/${c.numero}/documentos/${visible[0]!.id}/download?formato=texto`,
    headers: acc.headers,
  });
  assert.equal(text.statusCode, 200, text.body);
  assert.match(text.body, /^PODER JUDICIÁRIO\n/);
  assert.match(text.body, /Assinado eletronicamente por: MAGISTRADO FICTICIO DO SANDBOX/);
  assert.ok(text.body.includes(formatCnj(c.numero)));
  const pdf = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/documentos/${visible[0]!.id}/download`, headers: acc.headers });
  assert.equal(pdf.headers['x-documento-pdf'], 'tribunal', "the simulated court's Gerar PDF answers one");
  assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
});

test("GET /v1/integrador lists each enabled court's consultation and its last failure", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const body = json(await h.inject({ method: 'GET', url: '/v1/integrador', headers: acc.headers }));
  const fontes = body.data.fontes as { nome: string; configurada: boolean; ultimaFalha: { tipo: string } | null }[];
  for (const nome of ['Consulta TJSP', 'Consulta TJAL', 'Consulta TJDFT'])
    assert.ok(
      fontes.some((f) => f.nome === nome && f.configurada),
      nome,
    );
  assert.equal(fontes.find((f) => f.nome === 'Consulta TJSP')!.ultimaFalha?.tipo, 'anti_bot');
});
