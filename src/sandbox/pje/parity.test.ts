/**
 * Parity of the PJe simulator with the real pages (reference/upstream/real/pje-*.html): the structure
 * the client and the parser read (structure.ts: element paths by the parser's selectors, labels, text
 * shapes) is the same on the simulator's listView, search answers and detail page as on the captures.
 * Nothing the simulator serves is absent from the real pages; nothing the parser reads on TJMA's pages
 * is absent from the simulator's.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatCnj } from '../../platform/identifiers/index.ts';
import { pageText } from '../../sources/http/body.ts';
import { parsePjeSearchForm, pjeSearchBody } from '../../sources/consultas/pje/form.ts';
import { isCaseVisible, type SandboxCase } from '../data/model.ts';
import { GENDERED_ROLE_COURTS } from './pages.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { pjeStructure, type PjePageKind } from './structure.ts';
import { parsePjeViewer, pjeViewerPdfBody } from '../../sources/consultas/pje/viewer.ts';
import { SANDBOX_SIGNER } from './documents.ts';

const real = (name: string) => pageText(readFileSync(new URL(`../../sources/consultas/fixtures/${name}`, import.meta.url)));
const TJMA = {
  list: 'pje-tjma-listView.html',
  hit: 'pje-tjma-post_search_ok.html',
  empty: 'pje-tjma-post_search_empty.html',
  detail: 'pje-tjma-detalhe_ok.html',
  detail2g: 'pje-tjma-detalhe_ok_2g.html',
};
const TJCE = { hit: 'pje-tjce-search-3000739-94.2025.8.06.0100.html', detail: 'pje-tjce-detalhe-3000739-94.2025.8.06.0100.html' };
const TJRJ = { hit: 'pje-tjrj-search-0937165-77.2025.8.19.0001.html', detail: 'pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html' };

let sb: TestSandbox;
const sim = { list: '', hit: '', empty: '', detail: '', viewer: '', gendered: '' };
before(async () => {
  sb = await startTestSandbox();
  const now = sb.dataset.now();
  // A case with a lawyer and a party document, so every structure the real TJMA page has can show.
  const withLawyer = (x: SandboxCase) =>
    x.court.sistemaAtual === 'PJe' &&
    isCaseVisible(x, now) &&
    x.partes.some((p) => p.advogados.length > 0 && p.person.documento) &&
    x.documentos.some((d) => d.juntadaAt <= now);
  const c = sb.dataset.cases.find(withLawyer)!;
  Object.assign(sim, await pages(c));
  // A court that prints roles with a gendered suffix (`AUTOR(A)`).
  sim.gendered = (await pages(sb.dataset.cases.find((x) => withLawyer(x) && GENDERED_ROLE_COURTS.includes(x.court.sigla))!)).detail;
});
after(() => sb.close());

/** The simulator's listView, search answers and detail page for one case, as the client asks them. */
async function pages(c: SandboxCase): Promise<Omit<typeof sim, 'gendered'>> {
  const sim = { list: '', hit: '', empty: '', detail: '', viewer: '' };
  const base = `${sb.pjeUrl}/${c.court.sigla}`;
  const list = await fetch(`${base}/ConsultaPublica/listView.seam`);
  const cookie = list.headers.getSetCookie()[0].split(';')[0];
  sim.list = await list.text();
  const form = parsePjeSearchForm(sim.list);
  const post = async (masked: string) =>
    (
      await fetch(new URL(form.action, base).href, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: pjeSearchBody(form, masked),
      })
    ).text();
  sim.hit = await post(formatCnj(c.numero));
  sim.empty = await post('0000001-01.2025.8.10.0114');
  const ca = /ca=([0-9a-f]{48})/.exec(sim.hit)![1];
  sim.detail = await (await fetch(`${base}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=${ca}`, { headers: { cookie } })).text();
  // The first document's viewer, on the session that rendered the page (issue 53).
  const viewer = /openPopUp\('\d+popUpDocumento', '([^']+)'\)/.exec(sim.detail)![1]!.replaceAll('&amp;', '&');
  sim.viewer = await (await fetch(new URL(viewer, base).href, { headers: { cookie } })).text();
  return sim;
}

const facts = (html: string, kind: PjePageKind) => pjeStructure(html, kind);
const union = (names: string[], kind: PjePageKind) => [...new Set(names.flatMap((n) => facts(real(n), kind)))];
const missing = (from: string[], inside: string[]) => from.filter((f) => !inside.includes(f));

test("listView: the form, its fields, the search script and the compiled-out captcha are TJMA's", () => {
  assert.ok(facts(sim.list, 'listView').length >= 20);
  assert.deepEqual(facts(sim.list, 'listView'), facts(real(TJMA.list), 'listView'));
});

test("search answers: the hit row is the same as on TJMA, TJCE and TJRJ; the empty answer is TJMA's", () => {
  for (const name of [TJMA.hit, TJCE.hit, TJRJ.hit]) assert.deepEqual(facts(sim.hit, 'search'), facts(real(name), 'search'), name);
  assert.deepEqual(facts(sim.empty, 'search'), facts(real(TJMA.empty), 'search'));
});

test('detail page: nothing the simulator shows is absent from the real pages, nothing the parser reads on TJMA is missing', () => {
  const simFacts = facts(sim.detail, 'detail');
  assert.deepEqual(missing(simFacts, union([TJMA.detail, TJMA.detail2g, TJCE.detail, TJRJ.detail], 'detail')), []);
  assert.deepEqual(missing(facts(real(TJMA.detail), 'detail'), simFacts), []);
  for (const needed of ['party:', 'lawyer:', 'movement:', 'label: label "Número Processo"', 'bold: b "Órgão Julgador"', 'subject path:']) {
    assert.ok(
      simFacts.some((f) => f.startsWith(needed)),
      needed,
    );
  }
});

test('a court printing gendered roles (TJMG, TJPE): its page has the structure of the real pages edited the same way, and of the originals', () => {
  assert.match(sim.gendered, /\([A-ZÀ-Ú ]+\(A\)\)<\/span>/);
  // The real TJMA page with the roles printed as TJMG prints them: the same facts as the original (the system's shapes).
  const edited = real(TJMA.detail).replace('(AUTOR)</span>', '(AUTOR(A))</span>').replace('(REU)</span>', '(REQUERIDO(A))</span>');
  assert.deepEqual(facts(edited, 'detail'), facts(real(TJMA.detail), 'detail'));
  const simFacts = facts(sim.gendered, 'detail');
  assert.deepEqual(missing(simFacts, union([TJMA.detail, TJMA.detail2g, TJCE.detail, TJRJ.detail], 'detail')), []);
  assert.deepEqual(missing(facts(real(TJMA.detail), 'detail'), simFacts), []);
});

const VIEWERS = ['documents/tjma_pje1g_documento_sentenca_homologacao.html', 'documents/tjma_pje1g_documento_sentenca_extincao.html'];

test("the document viewer (issue 53): the sheet, the signature block, the validation code and the Gerar-PDF form are TJMA's", () => {
  const simFacts = facts(sim.viewer, 'viewer');
  for (const name of VIEWERS) assert.deepEqual(simFacts, facts(real(name), 'viewer'), name);
  assert.ok(simFacts.some((f) => f.startsWith('pdf link:') && f.endsWith('[onclick ok]')));
  const doc = parsePjeViewer(sim.viewer);
  assert.equal(doc.assinante, SANDBOX_SIGNER);
  assert.match(doc.texto, /^PODER JUDICIÁRIO\n/);
  assert.match(doc.codigoValidacao ?? '', /^\d{29}$/);
});

test("the viewer answers only in the session that rendered the page (else PJe's login); Gerar PDF answers a PDF", async () => {
  const viewer = /openPopUp\('\d+popUpDocumento', '([^']+)'\)/.exec(sim.detail)![1]!.replaceAll('&amp;', '&');
  const c = sb.dataset.cases.find((x) => sim.detail.includes(formatCnj(x.numero)))!;
  const url = new URL(viewer, `${sb.pjeUrl}/${c.court.sigla}`).href;
  const outside = await fetch(url, { redirect: 'manual' });
  assert.equal(outside.status, 302);
  assert.match(outside.headers.get('location') ?? '', /\/login\.seam$/);
  const form = parsePjeViewer(sim.viewer).pdf!;
  const pdf = await fetch(new URL(form.action, url).href, {
    method: 'POST',
    headers: { cookie: `JSESSIONID=SBX${c.court.sigla}.pje-sandbox-1`, 'content-type': 'application/x-www-form-urlencoded' },
    body: pjeViewerPdfBody(form),
  });
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.equal(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
    '%PDF-',
  );
});
