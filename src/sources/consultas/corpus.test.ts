/**
 * The corpus as a test (issue 44 item 1, issue 52): every real page of the three sets in
 * reference/upstream/real/ (copied as fixtures/, fixtures/set2/ and fixtures/set3/, personal names already replaced:
 * see each .prov.md) parsed into what a person reads on it. Where a `NAME.gt.json` stands beside a page
 * (Set 2's ground truth, extracted twice upstream), the parse is compared to it field by field. A page
 * added to any folder without a row here fails the first test. Set 3's pages are read to their
 * ground truth field by field through testing/truth.ts (the same maps the mutants are held to). Block pages must be told apart as
 * challenges and never read as data. No database: this runs in both engines' suites as is.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { detectChallenge } from './challenge.ts';
import { pageText } from '../http/body.ts';
import { Anomalies } from './anomalies.ts';
import { parseEsajPage, type EsajPage } from './esaj/parse.ts';
import { parseEsajSearch } from './esaj/search.ts';
import { parsePjeSearchForm } from './pje/form.ts';
import { parsePjeDetail, parsePjeSearch, type PjeHit } from './pje/parse.ts';
import type { ConsultaCase } from './record.ts';
import { baselinePages, differences, pageOf, SET3, set3Pages } from './testing/truth.ts';
import { judge, mutantsOf } from './testing/mutants.ts';
import { parsePjeDocuments, pjeDocumentsPageBody } from './pje/documents.ts';
import { parsePjeViewer } from './pje/viewer.ts';

const SET1 = new URL('./fixtures/', import.meta.url);
const SET2 = new URL('./fixtures/set2/', import.meta.url);
const page = (dir: URL, name: string) => pageText(readFileSync(new URL(name, dir)));
const truth = (name: string) => JSON.parse(readFileSync(new URL(name.replace(/\.html$/, '.gt.json'), SET2), 'utf8'));
/** Whitespace is insignificant (README "Set 2": CRLF restored inside complements); an empty text is no text. */
const flat = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const digits = (cnj: string) => cnj.replace(/\D/g, '');

const caseOf = (p: EsajPage): ConsultaCase => {
  assert.equal(p.kind, 'case');
  return (p as { case: ConsultaCase }).case;
};

/** A PJe search answer against its ground truth: each row's cell, link text and last movement; the counter. */
function pjeSearchMatches(name: string, expected: { total: number | null; limitado: boolean }): void {
  const gt = truth(name);
  const anomalies = new Anomalies();
  const answer = parsePjeSearch(page(SET2, name), anomalies);
  assert.equal(answer.found, true);
  const { hits, total, limitado } = answer as { hits: PjeHit[]; total: number | null; limitado: boolean };
  assert.equal(hits.length, gt.rows.length);
  gt.rows.forEach((row: { cell: string; link_text: string; last_mov: string }, i: number) => {
    const h = hits[i]!;
    assert.equal(flat([h.classe, h.rotulo, h.partes].filter(Boolean).join(' ')), flat(row.cell), `row ${i + 1} cell`);
    assert.equal(h.rotulo, flat(row.link_text), `row ${i + 1} link text`);
    assert.equal(h.ultimoMovimento, flat(row.last_mov), `row ${i + 1} last movement`);
    assert.equal(h.numeroCnj, digits(/\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/.exec(row.link_text)![0]));
    assert.match(h.detailPath, /\/ConsultaPublica\/DetalheProcessoConsultaPublica\/listView\.seam\?ca=[0-9a-f]{48}$/);
  });
  assert.deepEqual({ total, limitado }, expected, `counter "${gt.counter[0]}"`);
  assert.deepEqual(anomalies.campos, []);
}

/** What every block page must be: a challenge to the detector, and no parser's data. */
function refusedByEveryParser(html: string): void {
  assert.throws(() => parsePjeSearch(html));
  assert.throws(() => parsePjeDetail(html));
  assert.throws(() => parseEsajSearch(html));
  const esaj = (() => {
    try {
      return parseEsajPage(html, { numeroCnj: '00000000000000000000', tribunal: 'TJXX', grau: 1 }).kind;
    } catch {
      return 'refused';
    }
  })();
  assert.ok(esaj === 'refused', `e-SAJ read a block page as ${esaj}`);
}

type Row = [dir: URL, name: string, read: () => void, options?: { todo?: string }];

const PJE_DETAILS: [string, string, 1 | 2, { partes: number; movimentos: number; listados: [number | null, number | null] }][] = [
  ['pje-tjma-detalhe_ok.html', '08013415020258100114', 1, { partes: 2, movimentos: 15, listados: [4, 52] }],
  ['pje-tjma-detalhe_ok_2g.html', '08365218120258100000', 2, { partes: 6, movimentos: 15, listados: [21, 27] }],
  ['pje-tjce-detalhe-3000739-94.2025.8.06.0100.html', '30007399420258060100', 1, { partes: 2, movimentos: 11, listados: [3, 11] }],
  ['pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html', '09371657720258190001', 1, { partes: 8, movimentos: 15, listados: [20, 79] }],
];

const ROWS: Row[] = [
  // ---- Set 1 --------------------------------------------------------------------------------------
  [
    SET1,
    'esaj-1.html',
    () => {
      const c = caseOf(parseEsajPage(page(SET1, 'esaj-1.html'), { numeroCnj: '10001497120248260346', tribunal: 'TJSP', grau: 1 }));
      assert.deepEqual(
        [c.classe, c.orgao, c.valorCausaCentavos, c.movimentos.length, c.partes.length],
        ['Procedimento Comum Cível', '2ª Vara Judicial', 8143978, 118, 8],
      );
    },
  ],
  ...PJE_DETAILS.map(
    ([name, cnj, grau, expected]): Row => [
      SET1,
      name,
      () => {
        const anomalies = new Anomalies();
        const c = parsePjeDetail(page(SET1, name), { grau }, anomalies);
        assert.equal(c.numeroCnj, cnj);
        assert.equal(c.partes.length, expected.partes);
        assert.ok(c.partes.every((p) => p.tipo !== null && p.nome !== ''));
        assert.equal(c.movimentos.length, expected.movimentos);
        assert.deepEqual([c.listas?.partes.listados ?? null, c.listas?.movimentos.listados ?? null], expected.listados);
        assert.deepEqual(anomalies.campos, [], 'a real page reads whole');
      },
    ],
  ),
  [
    SET1,
    'pje-tjma-listView.html',
    () => {
      assert.match(parsePjeSearchForm(page(SET1, 'pje-tjma-listView.html')).searchScriptId, /^fPP:j_id\d+$/);
      assert.throws(() => parsePjeSearch(page(SET1, 'pje-tjma-listView.html')));
    },
  ],
  ...['pje-tjma-post_search_ok.html', 'pje-tjce-search-3000739-94.2025.8.06.0100.html', 'pje-tjrj-search-0937165-77.2025.8.19.0001.html'].map(
    (name): Row => [
      SET1,
      name,
      () => {
        const a = parsePjeSearch(page(SET1, name));
        assert.ok(a.found && a.hits.length === 1 && a.total === 1 && !a.limitado);
        assert.ok(a.hits[0]!.classe && a.hits[0]!.partes && a.hits[0]!.ultimoMovimento);
      },
    ],
  ),
  [SET1, 'pje-tjma-post_search_empty.html', () => assert.deepEqual(parsePjeSearch(page(SET1, 'pje-tjma-post_search_empty.html')), { found: false })],
  ...[
    'block-tjba-pje-search-captcha.html',
    'block-tjpb-pje-cloudflare-challenge.html',
    'block-tjms-esaj-cpopg5-search-recaptcha-bounce.html',
    'block-tjgo-projudi-busca-turnstile.html',
  ].map(
    (name): Row => [
      SET1,
      name,
      () => {
        assert.notEqual(detectChallenge(page(SET1, name), 200), null);
        refusedByEveryParser(page(SET1, name));
      },
    ],
  ),
  // ---- Set 2 --------------------------------------------------------------------------------------
  [
    SET2,
    'tjsp_esaj_cpopg_detalhe.html',
    () => {
      const gt = truth('tjsp_esaj_cpopg_detalhe.html');
      const anomalies = new Anomalies();
      const c = caseOf(
        parseEsajPage(page(SET2, 'tjsp_esaj_cpopg_detalhe.html'), { numeroCnj: digits(gt.numeroProcesso), tribunal: 'TJSP', grau: 1 }, anomalies),
      );
      assert.deepEqual(
        [c.classe, c.assuntos, c.foro, c.orgao, c.juiz, c.distribuidoEm, c.valorCausaCentavos],
        [gt.classeProcesso, [gt.assuntoProcesso], gt.foroProcesso, gt.varaProcesso, gt.juizProcesso, '2024-11-18T19:16:00-03:00', 796676],
      );
      assert.deepEqual(
        c.partes.map((p) => [p.tipo, p.nome, p.advogados.map((a) => a.nome)]),
        [
          ['Requerente', gt.partes[0].name, [gt.partes[0].lawyers[0][1]]],
          ['Requerido', gt.partes[1].name, []],
        ],
      );
      assert.deepEqual(
        c.partes.map((p) => p.polo),
        ['ATIVO', 'PASSIVO'],
      );
      // The OAB the party table hides, read from the DJE texts among the movements.
      assert.deepEqual(c.partes[0]!.advogados[0]!.oab, { uf: 'SP', numero: '402919' });
      // The hidden full table (43), never the visible last five added to it.
      assert.equal(c.movimentos.length, gt.mov_todas.length);
      gt.mov_todas.forEach((m: { date: string; title: string; text: string }, i: number) => {
        const got = c.movimentos[i]!;
        assert.deepEqual(
          [got.data, flat(got.titulo), flat(got.texto)],
          [`${m.date.slice(6)}-${m.date.slice(3, 5)}-${m.date.slice(0, 2)}`, flat(m.title), flat(m.text)],
          `movement ${i + 1}`,
        );
      });
      assert.deepEqual(anomalies.campos, []);
    },
  ],
  [
    SET2,
    'tjsp_esaj_cpopg_segredo.html',
    () => {
      assert.equal(truth('tjsp_esaj_cpopg_segredo.html').secrecy_popup, true);
      assert.deepEqual(parseEsajPage(page(SET2, 'tjsp_esaj_cpopg_segredo.html'), { numeroCnj: '10002231820268260456', tribunal: 'TJSP', grau: 1 }), {
        kind: 'secret',
      });
    },
  ],
  [
    SET2,
    'tjsp_esaj_cpopg_nao_existe.html',
    () => {
      assert.match(truth('tjsp_esaj_cpopg_nao_existe.html').message, /^Não existem informações/);
      assert.deepEqual(parseEsajPage(page(SET2, 'tjsp_esaj_cpopg_nao_existe.html'), { numeroCnj: '40046883920268260223', tribunal: 'TJSP', grau: 1 }), {
        kind: 'not_found',
      });
    },
  ],
  [
    SET2,
    'tjsp_busca_documento_vazio.html',
    () => {
      assert.equal(truth('tjsp_busca_documento_vazio.html').rows.length, 0);
      assert.deepEqual(parseEsajSearch(page(SET2, 'tjsp_busca_documento_vazio.html')), { numeros: [], total: 0, limitado: false, links: new Map() });
    },
  ],
  [
    SET2,
    'tjsp_esaj_cposg_lista.html',
    () => {
      const [gt] = truth('tjsp_esaj_cposg_lista.html');
      const p = parseEsajPage(page(SET2, 'tjsp_esaj_cposg_lista.html'), { numeroCnj: digits(gt.numero), tribunal: 'TJSP', grau: 2 });
      assert.deepEqual(p, {
        kind: 'list',
        hits: [
          {
            numeroCnj: digits(gt.numero),
            path: `show.do?processo.codigo=${gt.codigo}`,
            incidentes: gt.filhos.map(([, classe, data]: string[]) => ({
              numeroCnj: null,
              classe,
              data: `${data!.slice(6)}-${data!.slice(3, 5)}-${data!.slice(0, 2)}`,
            })),
          },
        ],
      });
    },
  ],
  [SET2, 'tjro_pje_busca_nomeparte.html', () => pjeSearchMatches('tjro_pje_busca_nomeparte.html', { total: null, limitado: true })],
  [SET2, 'tjma_pje2g_post_search_ok_2g.html', () => pjeSearchMatches('tjma_pje2g_post_search_ok_2g.html', { total: 1, limitado: false })],
  [SET2, 'tjma_pje_busca_oab.html', () => pjeSearchMatches('tjma_pje_busca_oab.html', { total: 4, limitado: false })],
  [
    SET2,
    'tjma_pje2g_listView_2g.html',
    () => {
      assert.match(parsePjeSearchForm(page(SET2, 'tjma_pje2g_listView_2g.html')).searchScriptId, /^fPP:j_id\d+$/);
      assert.throws(() => parsePjeSearch(page(SET2, 'tjma_pje2g_listView_2g.html')), /search form came back/);
    },
  ],
  ...['tjse_consultaprocessual_captcha_landing_block.html', 'tjpr_projudi_pesquisar_wrongcaptcha_block.html'].map(
    (name): Row => [
      SET2,
      name,
      () => {
        assert.notEqual(detectChallenge(page(SET2, name), 200), null);
        refusedByEveryParser(page(SET2, name));
      },
    ],
  ),
  ...['tjpi_pje_redirect_pdpj_spa_block.html', 'tjpi_projudi_busca_captcha_block.html'].map(
    (name): Row => [
      SET2,
      name,
      () => {
        refusedByEveryParser(page(SET2, name));
        assert.notEqual(detectChallenge(page(SET2, name), 200), null);
      },
    ],
  ),
];

// ---- Set 3: every page to its ground truth, field by field (testing/truth.ts) ---------------------
const SET3_NAMES = readdirSync(SET3).filter((f) => f.endsWith('.html'));
for (const p of set3Pages(SET3_NAMES))
  ROWS.push([
    SET3,
    p.name,
    () => {
      const read = p.read(pageOf(p.name));
      assert.deepEqual(differences(p.expected, read.fields), [], 'every field of the ground truth, nothing else');
      assert.ok(p.expected.size > 4, 'the ground truth has fields to compare');
      assert.deepEqual(read.anomalias, [], 'a real page reads whole');
    },
  ]);

const prefix = (dir: URL) => (dir === SET2 ? 'set2/' : dir === SET3 ? 'set3/' : '');

describe('the real pages of the three sets, read as a person reads them', () => {
  test('every page of every folder has its row', () => {
    const pages = [SET1, SET2, SET3].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.html'))
        .map((f) => `${prefix(dir)}${f}`),
    );
    const rows = ROWS.map(([dir, name]) => `${prefix(dir)}${name}`);
    assert.deepEqual([...rows].sort(), [...pages].sort());
  });
  for (const [dir, name, read, options] of ROWS) test(`${prefix(dir)}${name}`, options ?? {}, read);
});

/**
 * The corpus mutated (issue 52 item 5): each set-3 page under the changes courts make (testing/mutants.ts)
 * reads to its ground truth, or loses exactly the part removed with its anomaly. The count per page is
 * printed (docs/benchmarks.md records it) and every mutant must read right.
 */
describe('every set-3 page under the changes courts make', () => {
  for (const p of set3Pages(SET3_NAMES)) {
    test(`set3/${p.name}`, (t) => {
      const mutants = mutantsOf(p, pageOf(p.name));
      const wrong = mutants.map((m) => [m.name, judge(p, m)] as const).filter(([, why]) => why !== null);
      t.diagnostic(`${mutants.length - wrong.length}/${mutants.length} mutants read right`);
      assert.ok(mutants.length >= 4, 'the page has mutants');
      assert.deepEqual(wrong, []);
    });
  }
});

// ---- Public documents (issue 53): the viewer pages of fixtures/documents/ to documents.gt.json, the grids of the detail pages.
const DOCS = new URL('./fixtures/documents/', import.meta.url);
const DOCS_TRUTH = JSON.parse(readFileSync(new URL('documents.gt.json', DOCS), 'utf8')) as Record<string, DocumentTruth>;

interface DocumentTruth {
  data_titulo: string | null;
  signer: string;
  signed_at: string;
  id_do_documento: string;
  consulta_documento_x: string;
  gerar_pdf_form: { form_id: string; action: string; ca_len: number; idProcDocBin: string };
  text_lines: number;
  text_chars: number;
  first_lines: string[];
  last_line: string;
}

describe('the real document pages (issue 53), read to their ground truth', () => {
  test('every viewer page of fixtures/documents/ has its ground truth', () => {
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.html') && f.includes('_documento_'));
    assert.deepEqual(pages.sort(), Object.keys(DOCS_TRUTH).sort());
  });
  for (const [name, gt] of Object.entries(DOCS_TRUTH)) {
    test(`documents/${name}`, () => {
      const html = page(DOCS, name);
      assert.equal(detectChallenge(html, 200), null, 'a document page is no challenge');
      const d = parsePjeViewer(html);
      const lines = d.texto.split('\n');
      assert.equal(d.assinante, gt.signer);
      const [day, time] = gt.signed_at.split(' ');
      assert.equal(d.assinadoEm, `${day!.split('/').reverse().join('-')}T${time}.000-03:00`);
      assert.equal(d.idDocumento, gt.id_do_documento || null);
      assert.equal(d.codigoValidacao, gt.consulta_documento_x);
      assert.equal(d.titulo, gt.data_titulo);
      assert.equal(lines.length, gt.text_lines);
      assert.equal(lines.join('').length, gt.text_chars);
      assert.deepEqual(lines.slice(0, 3), gt.first_lines);
      assert.equal(lines.at(-1), gt.last_line);
      assert.equal(d.pdf?.action, gt.gerar_pdf_form.action);
      const fields = new Map(d.pdf!.fields);
      assert.equal(fields.get(`${gt.gerar_pdf_form.form_id}:downloadPDF`), `${gt.gerar_pdf_form.form_id}:downloadPDF`);
      assert.equal(fields.get('ca')?.length, gt.gerar_pdf_form.ca_len);
      assert.equal(fields.get('idProcDocBin'), gt.gerar_pdf_form.idProcDocBin);
      assert.ok(fields.has('javax.faces.ViewState'));
      assert.doesNotMatch(d.html, /<script|<form|<!--|data-polo=/i, 'no scripts, forms, comments or hidden parties');
      assert.doesNotMatch(d.html, /Assinado eletronicamente|Gerar PDF/, 'the signature block and the buttons are not the body');
    });
  }
  test('a page that is not a document (a login, an error page) is refused', () => {
    assert.throws(() => parsePjeViewer(page(SET1, 'pje-tjma-listView.html')), /no document sheet/);
    assert.throws(() => parsePjeViewer(page(SET1, 'pje-tjma-detalhe_ok.html')), /no document sheet/);
  });

  const GRIDS: [
    dir: URL,
    name: string,
    listados: number,
    rows: { id: string; formato: string; titulo: string; tipo: string; juntadoEm: string }[],
    pages: number | null,
  ][] = [
    [
      SET1,
      'pje-tjma-detalhe_ok.html',
      6,
      [
        { id: '180202999', formato: 'binario', titulo: 'GuiaMA1.63666', tipo: 'Custas', juntadoEm: '2026-05-19T13:36:05.000-03:00' },
        { id: '180202998', formato: 'binario', titulo: 'Comprovante1.63666', tipo: 'Custas', juntadoEm: '2026-05-19T13:36:05.000-03:00' },
        { id: '177273124', formato: 'html', titulo: 'Sentença', tipo: 'Sentença', juntadoEm: '2026-04-23T14:59:05.000-03:00' },
        { id: '172729756', formato: 'html', titulo: 'Sentença', tipo: 'Sentença', juntadoEm: '2026-02-21T12:25:34.000-03:00' },
        {
          id: '170742187',
          formato: 'html',
          titulo: 'Ata de audiência no CEJUSC',
          tipo: 'Ata de audiência no CEJUSC',
          juntadoEm: '2026-01-28T09:49:37.000-03:00',
        },
        { id: '154828848', formato: 'html', titulo: 'Decisão', tipo: 'Decisão', juntadoEm: '2025-07-17T17:10:45.000-03:00' },
      ],
      null,
    ],
    [
      SET1,
      'pje-tjce-detalhe-3000739-94.2025.8.06.0100.html',
      1,
      [{ id: '159848930', formato: 'html', titulo: 'Decisão', tipo: 'Decisão', juntadoEm: '2025-06-10T13:54:50.000-03:00' }],
      null,
    ],
    [SET3, 'trf3_pje_detalhe_5001847-04.2022.4.03.6323.html', 30, [], 2],
  ];
  for (const [dir, name, listados, rows, pages] of GRIDS) {
    test(`the documents grid of ${name}`, () => {
      const anomalies = new Anomalies();
      const grid = parsePjeDocuments(page(dir, name), anomalies)!;
      assert.equal(grid.listados, listados);
      if (rows.length > 0)
        assert.deepEqual(
          grid.rows.map(({ id, formato, titulo, tipo, juntadoEm }) => ({ id, formato, titulo, tipo, juntadoEm })),
          rows,
        );
      else assert.equal(grid.rows.length, 15, 'one page of 15');
      assert.equal(grid.pager?.paginas ?? null, pages);
      for (const r of grid.rows.filter((x) => x.formato === 'html'))
        assert.match(r.link!, /documentoSemLoginHTML\.seam\?ca=[0-9a-f]+&idProcessoDoc=\d+(&codigo=)?$/);
      assert.deepEqual(anomalies.campos, []);
    });
  }
  test("TRF3's label `ID: N - yyyy-mm-dd hh:mm:ss.SSS - Desc (Type)` and its slider's A4J request for page 2", () => {
    const grid = parsePjeDocuments(page(SET3, 'trf3_pje_detalhe_5001847-04.2022.4.03.6323.html'))!;
    assert.deepEqual((({ id, titulo, tipo, juntadoEm }) => ({ id, titulo, tipo, juntadoEm }))(grid.rows[2]!), {
      id: '329231373',
      titulo: 'Sentença',
      tipo: 'Sentença',
      juntadoEm: '2024-06-20T17:12:37.000-03:00',
    });
    const body = new URLSearchParams(pjeDocumentsPageBody(grid.pager!, 2));
    assert.equal(body.get('AJAXREQUEST'), 'j_id149:j_id568');
    assert.equal(body.get('j_id149:j_id652:j_id653'), '2');
    assert.equal(body.get('j_id149:j_id652:j_id654'), 'j_id149:j_id652:j_id654');
    assert.equal(body.get('javax.faces.ViewState'), 'j_id4');
  });
});

/** Sets 1 and 2's readable pages under the same mutants, held to their own whole read (issue 52 item 5). */
describe('every set-1 and set-2 page under the changes courts make, held to its own whole read', () => {
  const pages = baselinePages([
    ...PJE_DETAILS.map(([name]) => ({ dir: SET1, name, system: 'pje' as const, kind: 'detail' as const })),
    ...['pje-tjma-post_search_ok.html', 'pje-tjce-search-3000739-94.2025.8.06.0100.html', 'pje-tjrj-search-0937165-77.2025.8.19.0001.html'].map((name) => ({
      dir: SET1,
      name,
      system: 'pje' as const,
      kind: 'search' as const,
    })),
    ...['tjro_pje_busca_nomeparte.html', 'tjma_pje2g_post_search_ok_2g.html', 'tjma_pje_busca_oab.html'].map((name) => ({
      dir: SET2,
      name,
      system: 'pje' as const,
      kind: 'search' as const,
    })),
    { dir: SET1, name: 'esaj-1.html', system: 'esaj', kind: 'detail', numero: '1000149-71.2024.8.26.0346' },
    { dir: SET2, name: 'tjsp_esaj_cpopg_detalhe.html', system: 'esaj', kind: 'detail', numero: truth('tjsp_esaj_cpopg_detalhe.html').numeroProcesso },
  ]);
  for (const p of pages) {
    test(p.name, (t) => {
      const mutants = mutantsOf(p, p.html!);
      const wrong = mutants.map((m) => [m.name, judge(p, m)] as const).filter(([, why]) => why !== null);
      t.diagnostic(`${mutants.length - wrong.length}/${mutants.length} mutants read right`);
      assert.ok(p.expected.size > 4 && mutants.length >= 4);
      assert.deepEqual(wrong, []);
    });
  }
});
