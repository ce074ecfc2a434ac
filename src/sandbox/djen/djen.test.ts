/** The DJEN simulator over real HTTP on 127.0.0.1: search, paging, one item, certidão, courts, cadernos, publish, faults. */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fromBufferPromise } from 'yauzl';
import { createHash } from 'node:crypto';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { CADERNO_PAGE_SIZE } from './caderno.ts';
import { brasiliaDayOf, isoDay } from './dates.ts';
import type { DjenItem } from './model.ts';
import { DjenStore } from './store.ts';

let sb: TestSandbox;
/** The same communications the server generated (same data set), to pick examples from. */
let store: DjenStore;
before(async () => {
  sb = await startTestSandbox({ cases: 300 });
  store = new DjenStore(sb.dataset);
});
after(() => sb.close());
beforeEach(() => sb.faults.reset());

const api = (path: string) => fetch(`${sb.djenUrl}/api/v1${path}`);
async function search(qs: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await api(`/comunicacao?${qs}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
}
const today = () => brasiliaDayOf(sb.dataset.now());

/** Every page of a query, as a client that ignores `count` does: until a short page. */
async function allPages(qs: string, size: number): Promise<DjenItem[]> {
  const items: DjenItem[] = [];
  for (let pagina = 1; ; pagina++) {
    const { body } = await search(`${qs}&itensPorPagina=${size}&pagina=${pagina}`);
    items.push(...body.items);
    if (body.items.length < size) return items;
  }
}

describe('GET /comunicacao', () => {
  test('by OAB: success envelope, rate-limit headers, every item names the lawyer', async () => {
    const { oab } = sb.djen.examples();
    assert.ok(oab && oab.comunicacoes > 1 && oab.spellings.dotted > 0, JSON.stringify(oab));
    const r = await search(`numeroOab=${oab.numero}&ufOab=${oab.uf}&itensPorPagina=100`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    assert.equal(r.body.message, 'Consulta realizada com sucesso');
    assert.equal(r.headers.get('x-ratelimit-limit'), '20');
    assert.ok(Number(r.headers.get('x-ratelimit-remaining')) >= 5);
    assert.equal(r.body.count, oab.comunicacoes - oab.spellings.dotted, 'the plain query misses the dotted items');
    for (const item of r.body.items)
      assert.ok(item.destinatarioadvogados.some((d: any) => d.advogado.uf_oab === oab.uf && !d.advogado.numero_oab.includes('.')));
    const dotted = await search(`numeroOab=${oab.numero.replace(/\B(?=(\d{3})+$)/g, '.')}&ufOab=${oab.uf}&itensPorPagina=100`);
    assert.equal(dotted.body.count, oab.spellings.dotted);
  });

  test('pages go newest → oldest without duplicates; count is the total up to 100 per page, the page size above', async () => {
    const { oab } = sb.djen.examples();
    const qs = `numeroOab=${oab!.numero}&ufOab=${oab!.uf}`;
    const small = await allPages(qs, 7);
    const big = await allPages(qs, 500);
    assert.deepEqual(
      small.map((i) => i.id),
      big.map((i) => i.id),
    );
    assert.equal(new Set(small.map((i) => i.id)).size, small.length);
    for (let k = 1; k < small.length; k++) {
      const [a, b] = [small[k - 1], small[k]];
      assert.ok(a.data_disponibilizacao > b.data_disponibilizacao || (a.data_disponibilizacao === b.data_disponibilizacao && a.id > b.id));
    }
    assert.equal((await search(`${qs}&itensPorPagina=100`)).body.count, small.length);
    assert.equal((await search(`${qs}&itensPorPagina=500`)).body.count, 500, 'count lies above 100 per page');
    const day = small[0].data_disponibilizacao;
    const tribunal = small[0].siglaTribunal;
    const oneDay = await search(`siglaTribunal=${tribunal}&dataDisponibilizacaoInicio=${day}&dataDisponibilizacaoFim=${day}&itensPorPagina=100`);
    assert.equal(oneDay.body.count, 10_000, 'a one-day court-wide query says 10000');
    assert.ok(oneDay.body.items.length < 100 && oneDay.body.items.every((i: DjenItem) => i.siglaTribunal === tribunal && i.data_disponibilizacao === day));
  });

  test('by case number (bare or masked), party name and lawyer name, accent/case-insensitive; texto; dates; meio', async () => {
    const ex = sb.djen.examples();
    const bare = await search(`numeroProcesso=${ex.numeroProcesso}`);
    assert.ok(bare.body.count >= 3);
    const masked = await search(`numeroProcesso=${bare.body.items[0].numeroprocessocommascara}`);
    assert.deepEqual(
      masked.body.items.map((i: DjenItem) => i.id),
      bare.body.items.map((i: DjenItem) => i.id),
    );
    const shouted = ex
      .nomeParte!.normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase();
    const byParty = await search(`nomeParte=${encodeURIComponent(shouted)}`);
    assert.ok(byParty.body.items.length > 0 && byParty.body.items.every((i: DjenItem) => i.destinatarios.some((d) => d.nome === ex.nomeParte!.toUpperCase())));
    const lawyer = bare.body.items.find((i: DjenItem) => i.destinatarioadvogados.length)!.destinatarioadvogados[0].advogado.nome;
    const byLawyer = await search(`nomeAdvogado=${encodeURIComponent(lawyer.toLowerCase())}`);
    assert.ok(byLawyer.body.items.some((i: DjenItem) => i.numero_processo === ex.numeroProcesso));
    const byText = await search(`texto=${encodeURIComponent('citada contestar')}&itensPorPagina=1000`);
    assert.ok(byText.body.items.length > 0 && byText.body.items.every((i: DjenItem) => i.tipoComunicacao === 'Citação' || i.tipoComunicacao === 'Edital'));
    const first = isoDay(today() - 30);
    const window = await allPages(
      `siglaTribunal=${bare.body.items[0].siglaTribunal}&dataDisponibilizacaoInicio=${first}&dataDisponibilizacaoFim=${isoDay(today())}`,
      100,
    );
    assert.ok(window.every((i) => i.data_disponibilizacao >= first && i.data_disponibilizacao <= isoDay(today())));
    const editais = await search('meio=E&itensPorPagina=5');
    assert.ok(editais.body.items.every((i: DjenItem) => i.meio === 'E' && i.meiocompleto !== 'Diário de Justiça Eletrônico Nacional'));
  });

  test("DJEN's rule: a filter or itensPorPagina ≤ 5, else 400; bad parameters 400", async () => {
    const refused = await search('itensPorPagina=100');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.status, 'error');
    assert.match(refused.body.message, /siglaTribunal/);
    assert.equal((await search('dataDisponibilizacaoInicio=2026-01-01')).status, 400);
    const five = await search('itensPorPagina=5');
    assert.equal(five.status, 200);
    assert.equal(five.body.items.length, 5);
    assert.ok(five.body.items.every((i: DjenItem) => i.data_disponibilizacao <= isoDay(today())));
    assert.equal((await search('siglaTribunal=TJSP&itensPorPagina=1001')).status, 400);
    assert.equal((await search('siglaTribunal=TJSP&pagina=0')).status, 400);
    assert.equal((await search('numeroProcesso=12345')).status, 400);
  });

  test('cancelled communications are listed with ativo false', async () => {
    const t = store.table;
    const cancelled = Array.from({ length: t.count }, (_, p) => p).find((p) => t.flags[p] & 0x40 && t.day[p] <= today());
    assert.ok(cancelled !== undefined);
    const c = store.resolve(cancelled);
    const { body } = await search(`numeroProcesso=${c.numero}&itensPorPagina=1000`);
    const item = body.items.find((i: DjenItem) => i.id === c.id);
    assert.equal(item.ativo, false);
    assert.ok(item.data_cancelamento && item.motivo_cancelamento);
  });
});

describe('one item, certidão, courts', () => {
  test('GET /comunicacao/{id}: the item, or 404 (unknown, or not yet made available)', async () => {
    const { body } = await search('itensPorPagina=1');
    const item = body.items[0];
    const res = await api(`/comunicacao/${item.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'success', message: 'Consulta realizada com sucesso', items: [item] });
    assert.equal((await api('/comunicacao/123')).status, 404);
    const t = store.table;
    const future = Array.from({ length: t.count }, (_, p) => p).find((p) => t.day[p] > today())!;
    assert.equal((await api(`/comunicacao/${store.resolve(future).id}`)).status, 404);
  });

  test('GET /comunicacao/{hash}/certidao: a PDF; 404 for an unknown hash', async () => {
    const { body } = await search('itensPorPagina=1');
    const res = await api(`/comunicacao/${body.items[0].hash}/certidao`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.length > 1000 && pdf.length < 100_000);
    assert.equal((await api(`/comunicacao/${'x'.repeat(30)}/certidao`)).status, 404);
  });

  test('GET /comunicacao/tribunal: courts by UF', async () => {
    const res = await api('/comunicacao/tribunal');
    assert.equal(res.status, 200);
    const groups = await res.json();
    const siglas = groups.flatMap((g: any) => g.instituicoes.map((i: any) => i.sigla));
    assert.equal(siglas.length, 91);
    for (const s of ['TJSP', 'TRF4', 'TRE-SP', 'STJ', 'TST']) assert.ok(siglas.includes(s), s);
    const sp = groups.find((g: any) => g.uf === 'SP');
    assert.equal(sp.nomeEstado, 'São Paulo');
    assert.ok(sp.instituicoes.some((i: any) => i.sigla === 'TJSP' && /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/.test(i.dataUltimoEnvio)));
  });
});

describe('cadernos', () => {
  test('metadata, then a ZIP of JSON pages of at most 1000 items whose sha256 and size match', async () => {
    const { caderno } = sb.djen.examples();
    assert.ok(caderno);
    const res = await api(`/caderno/${caderno.siglaTribunal}/${caderno.data}/D`);
    assert.equal(res.status, 200);
    const meta = await res.json();
    assert.deepEqual(Object.keys(meta), [
      'tribunal',
      'sigla_tribunal',
      'meio',
      'status',
      'versao',
      'data',
      'total_comunicacoes',
      'numero_paginas',
      'tamanho_bytes',
      'hash',
      'url',
    ]);
    assert.equal(meta.status, 'Processado');
    assert.ok(meta.url.startsWith(`${sb.djenUrl}/_cadernos/`));
    const zip = Buffer.from(await (await fetch(meta.url)).arrayBuffer());
    assert.equal(String(zip.length), meta.tamanho_bytes);
    assert.equal(createHash('sha256').update(zip).digest('hex'), meta.hash);
    const entries = await readZip(zip);
    assert.equal(entries.length, meta.numero_paginas);
    const items = entries.flatMap((e) => e.items);
    assert.equal(items.length, meta.total_comunicacoes);
    assert.ok(entries.every((e) => e.items.length <= CADERNO_PAGE_SIZE && e.name.startsWith(`${caderno.siglaTribunal}_${caderno.data}_D_`)));
    assert.ok(items.every((i) => i.siglaTribunal === caderno.siglaTribunal && i.data_disponibilizacao === caderno.data && i.meio === 'D'));
    const searched = await allPages(
      `siglaTribunal=${caderno.siglaTribunal}&dataDisponibilizacaoInicio=${caderno.data}&dataDisponibilizacaoFim=${caderno.data}&meio=D`,
      100,
    );
    assert.deepEqual(new Set(items.map((i) => i.id)), new Set(searched.map((i) => i.id)), 'the caderno holds what the search finds');
  });

  test('big cadernos split into pages of 1000', async () => {
    for (let n = 0; n < CADERNO_PAGE_SIZE + 1; n++)
      sb.djen.publish({ numeroProcesso: '50192100820214047100', siglaTribunal: 'TRF4', destinatarios: [{ nome: `Parte de Teste ${n}`, polo: 'A' }] });
    const meta = await (await api(`/caderno/TRF4/${isoDay(today())}/D`)).json();
    assert.ok(meta.total_comunicacoes > CADERNO_PAGE_SIZE);
    assert.equal(meta.numero_paginas, 2);
    const entries = await readZip(Buffer.from(await (await fetch(meta.url)).arrayBuffer()));
    assert.deepEqual(
      entries.map((e) => [e.name, e.items.length]),
      [
        [`TRF4_${isoDay(today())}_D_1.json`, 1000],
        [`TRF4_${isoDay(today())}_D_2.json`, meta.total_comunicacoes - 1000],
      ],
    );
  });

  test('an expired URL is refused with 403; future days are Não Processado; empty days Sem comunicações', async () => {
    const { caderno } = sb.djen.examples();
    const meta = await (await api(`/caderno/${caderno!.siglaTribunal}/${caderno!.data}/D`)).json();
    const future = await (await api(`/caderno/${caderno!.siglaTribunal}/${isoDay(today() + 3)}/D`)).json();
    assert.equal(future.status, 'Não Processado');
    assert.equal(future.url, null);
    const empty = await (await api(`/caderno/TJMSP/1999-01-04/E`)).json();
    assert.equal(empty.status, 'Sem comunicações');
    assert.equal((await api('/caderno/XYZ/2026-03-01/D')).status, 404);
    assert.equal((await api(`/caderno/TJSP/2026-13-01/D`)).status, 400);
    sb.clock.advance(6 * 60_000);
    try {
      const expired = await fetch(meta.url);
      assert.equal(expired.status, 403);
      assert.match(await expired.text(), /Request has expired/);
    } finally {
      sb.clock.advance(-6 * 60_000);
    }
  });
});

describe('publishing on demand', () => {
  test('publish(): visible at once by id, OAB (in its spelling), case and caderno', async () => {
    const numero = sb.dataset.cases.find((c) => c.filedAt <= sb.dataset.now())!.numero;
    const item = sb.djen.publish({
      numeroProcesso: numero,
      advogados: [{ nome: 'Advogada de Teste Publicada', uf: 'RS', numero: '57689', spelling: 'dotted' }],
      texto: '<p>Intimação de teste publicada sob demanda.</p>',
    });
    assert.equal(item.numero_processo, numero);
    assert.equal(item.data_disponibilizacao, isoDay(today()));
    assert.equal(item.destinatarioadvogados[0].advogado.numero_oab, '57.689');
    assert.ok(item.destinatarios.length > 0, "the sandbox case's parties by default");
    assert.deepEqual((await (await api(`/comunicacao/${item.id}`)).json()).items, [item]);
    assert.ok((await search('numeroOab=57.689&ufOab=RS')).body.items.some((i: DjenItem) => i.id === item.id));
    assert.ok(!(await search('numeroOab=57689&ufOab=RS')).body.items.some((i: DjenItem) => i.id === item.id));
    assert.equal((await search(`numeroProcesso=${numero}&itensPorPagina=1`)).body.items[0].id, item.id, 'newest first');
    assert.ok((await search('texto=publicada%20sob%20demanda&itensPorPagina=5')).body.items.some((i: DjenItem) => i.id === item.id));
    const meta = await (await api(`/caderno/${item.siglaTribunal}/${item.data_disponibilizacao}/D`)).json();
    const items = (await readZip(Buffer.from(await (await fetch(meta.url)).arrayBuffer()))).flatMap((e) => e.items);
    assert.ok(items.some((i) => i.id === item.id));
  });

  test('POST /_sandbox/djen/comunicacoes: any valid CNJ with its court; cancelled; 400 on bad input', async () => {
    const post = (body: unknown) =>
      fetch(`${sb.url}/_sandbox/djen/comunicacoes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await post({
      numeroProcesso: '5019210-08.2021.4.04.7100',
      destinatarios: [{ nome: 'Fulano de Teste Avulso', polo: 'P' }],
      advogados: [{ nome: 'Beltrano de Teste', uf: 'SC', numero: '12345', spelling: 'prefixed' }],
      tipoComunicacao: 'Citação',
      ativo: false,
    });
    assert.equal(res.status, 201);
    const item = await res.json();
    assert.equal(item.siglaTribunal, 'TRF4');
    assert.equal(item.tipoComunicacao, 'Citação');
    assert.equal(item.ativo, false);
    assert.deepEqual(
      item.destinatarios.map((d: any) => [d.nome, d.polo]),
      [['FULANO DE TESTE AVULSO', 'P']],
    );
    assert.equal(item.destinatarioadvogados[0].advogado.numero_oab, 'SC012345');
    assert.ok((await search('nomeParte=fulano%20avulso')).body.items.some((i: DjenItem) => i.id === item.id));
    for (const bad of [
      {},
      { numeroProcesso: '123' },
      { numeroProcesso: '50192100820214047100', advogados: [{ nome: 'X', uf: 'ZZ', numero: '1' }] },
      { numeroProcesso: '50192100820214047100', colour: 1 },
    ]) {
      const r = await post(bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match((await r.json()).message, /djen publish/);
    }
    const info = await (await fetch(`${sb.url}/_sandbox`)).json();
    assert.equal(info.djenUrl, sb.djenUrl);
    assert.ok(info.djen.examples.oab);
  });
});

describe('faults apply to DJEN', () => {
  test("403 is CloudFront's geoblock page; 429 carries Retry-After; the ZIP route is djen too; stats count", async () => {
    sb.resetStats();
    sb.faults.set({ upstream: 'djen', status: 403, times: 1 });
    const blocked = await api('/comunicacao?itensPorPagina=5');
    assert.equal(blocked.status, 403);
    assert.match(blocked.headers.get('content-type')!, /text\/html/);
    const html = await blocked.text();
    assert.match(html, /The request could not be satisfied/);
    assert.match(html, /block access from your country/);
    assert.equal((await api('/comunicacao?itensPorPagina=5')).status, 200);
    sb.faults.set({ upstream: 'djen', status: 429, retryAfterSeconds: 60, times: 1 });
    const limited = await api('/comunicacao?itensPorPagina=5');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    const { caderno } = sb.djen.examples();
    const meta = await (await api(`/caderno/${caderno!.siglaTribunal}/${caderno!.data}/D`)).json();
    sb.faults.set({ upstream: 'all', status: 503, times: 1 });
    assert.equal((await fetch(meta.url)).status, 503);
    sb.faults.set({ upstream: 'djen', malformed: true, times: 1 });
    const cut = await api('/comunicacao?itensPorPagina=5');
    assert.equal(cut.status, 200);
    await assert.rejects(cut.json());
    const stats = sb.stats();
    assert.equal(stats.djen.requests, 6);
    assert.deepEqual(stats.djen.faults, { status: 3, malformed: 1 });
    assert.equal(stats.datajud.requests, 0);
  });
});

async function readZip(zip: Buffer): Promise<{ name: string; items: DjenItem[] }[]> {
  const file = await fromBufferPromise(zip, { lazyEntries: true });
  const out: { name: string; items: DjenItem[] }[] = [];
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.push({ name: entry.fileName, items: JSON.parse(Buffer.concat(chunks).toString('utf8')).items });
  }
  file.close();
  return out;
}
