/**
 * parsePjeDetail / parsePjeSearch over the real PJe pages of three courts (TJMA 1st and 2nd degree, TJCE
 * in Latin-1 bytes under a UTF-8 label, TJRJ re-serialised by an HTML parser): field by field what a
 * person reads on each — every party with pole, role, name and document as shown, every lawyer and OAB,
 * every movement's date-time and text, in the page's order. Then the pages that must fail: cut short,
 * another page, a movement or party the parser cannot read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageText } from '../../http/body.ts';
import type { ConsultaCase } from '../record.ts';
import { Anomalies } from '../anomalies.ts';
import { parsePjeDetail, parsePjeSearch, PjePageError, readParticipant } from './parse.ts';
import { subjectLeaf } from '../subject.ts';

const page = (name: string) => pageText(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const TJMA = 'pje-tjma-detalhe_ok.html';
const TJMA_2G = 'pje-tjma-detalhe_ok_2g.html';
const TJCE = 'pje-tjce-detalhe-3000739-94.2025.8.06.0100.html';
const TJRJ = 'pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html';

/** The cover as a person reads it. */
const cover = (c: ConsultaCase) => ({
  numeroCnj: c.numeroCnj,
  tribunal: c.tribunal,
  sistema: c.sistema,
  grau: c.grau,
  classe: c.classe,
  assuntos: c.assuntos,
  orgao: c.orgao,
  foro: c.foro,
  juiz: c.juiz,
  distribuidoEm: c.distribuidoEm,
  valorCausaCentavos: c.valorCausaCentavos,
  situacao: c.situacao,
  segredo: c.segredo,
  processoReferencia: c.processoReferencia,
  incidentes: c.incidentes,
});
/** Each party: pole, role, name, document as shown, person kind, then each lawyer as `NAME (UF NUMBER)`. */
const parties = (c: ConsultaCase) =>
  c.partes.map((p) => [
    p.polo,
    p.tipo,
    p.nome,
    p.documento,
    p.tipoPessoa,
    p.advogados.map((a) => `${a.nome} (${a.oab ? `${a.oab.uf} ${a.oab.numero}` : '-'})`),
  ]);
/** Each movement: Brasília wall time and text (the offset checked once for all). */
const movements = (c: ConsultaCase) => {
  for (const m of c.movimentos) {
    assert.match(m.data, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000-03:00$/);
    assert.equal(m.texto, null, 'PJe shows a movement as one line');
  }
  return c.movimentos.map((m) => [m.data.slice(0, 19), m.titulo]);
};

test('TJMA 1st degree: cover, the two parties with CPF/CNPJ unmasked, each lawyer with his lettered OAB, the 15 movements shown', () => {
  const c = parsePjeDetail(page(TJMA));
  assert.deepEqual(cover(c), {
    numeroCnj: '08013415020258100114',
    tribunal: 'TJMA',
    sistema: 'pje',
    grau: 1,
    classe: 'PROCEDIMENTO COMUM CÍVEL',
    assuntos: ['Crédito Direto ao Consumidor - CDC'],
    orgao: 'Vara Única de Riachão',
    foro: 'Fórum da Comarca de Riachão',
    juiz: null,
    distribuidoEm: '2025-07-17',
    valorCausaCentavos: null,
    situacao: null,
    segredo: false,
    processoReferencia: null,
    incidentes: [],
  });
  assert.deepEqual(parties(c), [
    ['ATIVO', 'AUTOR', 'NATANAEL FICTICIO DA AMOSTRA', '00000000191', 'FISICA', ['JOSENIEL BEZERRA DE ASSIS (MA 16087A)']],
    // `WILSON SALES BELCHIOR registrado(a) civilmente como WILSON SALES BELCHIOR - OAB MA11099-A`: the name shown first.
    ['PASSIVO', 'REU', 'BANCO DO BRASIL SA', '00000000000191', 'JURIDICA', ['WILSON SALES BELCHIOR (MA 11099A)']],
  ]);
  assert.deepEqual(movements(c), [
    ['2026-05-25T01:06:12', 'Publicado Intimação em 25/05/2026.'],
    ['2026-05-23T01:19:03', 'Disponibilizado no DJ Eletrônico em 22/05/2026'],
    ['2026-05-21T01:12:20', 'Decorrido prazo de JOSENIEL BEZERRA DE ASSIS em 20/05/2026 23:59.'],
    ['2026-05-21T00:02:37', 'Enviado ao Diário da Justiça Eletrônico'],
    ['2026-05-21T00:01:49', 'Ato ordinatório praticado'],
    ['2026-05-19T13:36:05', 'Juntada de Petição de apelação'],
    ['2026-04-28T01:00:28', 'Publicado Intimação em 28/04/2026.'],
    ['2026-04-28T01:00:28', 'Disponibilizado no DJ Eletrônico em 27/04/2026'],
    ['2026-04-24T12:54:15', 'Enviado ao Diário da Justiça Eletrônico'],
    ['2026-04-23T14:59:06', 'Embargos de Declaração Acolhidos'],
    ['2026-04-09T22:11:10', 'Juntada de protocolo'],
    ['2026-04-01T23:46:45', 'Conclusos para decisão'],
    ['2026-03-24T21:51:02', 'Decorrido prazo de JOSENIEL BEZERRA DE ASSIS em 23/03/2026 23:59.'],
    ['2026-03-24T21:51:02', 'Decorrido prazo de WILSON SALES BELCHIOR em 23/03/2026 23:59.'],
    ['2026-03-13T12:10:08', 'Decorrido prazo de WILSON SALES BELCHIOR em 06/03/2026 23:59.'],
  ]);
});

test(
  'TJMA 2nd degree: the rapporteur\'s cabinet as órgão, "Processo referência", five agravantes ' + 'with one lawyer each (page 1 of the party list), the State',
  () => {
    const c = parsePjeDetail(page(TJMA_2G));
    assert.deepEqual(cover(c), {
      numeroCnj: '08365218120258100000',
      tribunal: 'TJMA',
      sistema: 'pje',
      grau: 2,
      classe: 'AGRAVO DE INSTRUMENTO',
      assuntos: ['Índice de 11,98%'],
      orgao: 'Gabinete Des. Tyrone José Silva (CDPU)',
      foro: 'Tribunal de Justiça do Estado do Maranhão',
      juiz: null,
      distribuidoEm: '2026-05-07',
      valorCausaCentavos: null,
      situacao: null,
      segredo: false,
      processoReferencia: '00200796120118100001',
      incidentes: [],
    });
    const sonia = ['SONIA MARIA LOPES COELHO (MA 3811A)'];
    assert.deepEqual(parties(c), [
      ['ATIVO', 'AGRAVANTE', 'MARIA FICTICIA DE EXEMPLO', '00000000272', 'FISICA', sonia],
      ['ATIVO', 'AGRAVANTE', 'MARIA HILDA FICTICIA DA AMOSTRA', '00000000353', 'FISICA', sonia],
      ['ATIVO', 'AGRAVANTE', 'MARIA DO CARMO FICTICIA E MODELO', '00000000434', 'FISICA', sonia],
      ['ATIVO', 'AGRAVANTE', 'MAURO FICTICIO EXEMPLAR', '00000000515', 'FISICA', sonia],
      ['ATIVO', 'AGRAVANTE', 'MARGARETE MARIA DOS FICTICIOS TESTE', '00000000604', 'FISICA', sonia],
      ['PASSIVO', 'AGRAVADO', 'ESTADO DO MARANHAO', '06354468000160', 'JURIDICA', []],
    ]);
    assert.deepEqual(movements(c), [
      ['2026-06-25T00:21:44', 'Publicado Despacho (expediente) em 25/06/2026.'],
      ['2026-06-25T00:21:43', 'Disponibilizado no DJ Eletrônico em 24/06/2026'],
      ['2026-06-24T08:48:50', 'Expedição de Comunicação eletrônica.'],
      ['2026-06-24T00:01:48', 'Decorrido prazo de ESTADO DO MARANHAO em 23/06/2026 23:59.'],
      ['2026-06-23T14:12:49', 'Enviado ao Diário da Justiça Eletrônico'],
      ['2026-06-22T20:50:42', 'Proferido despacho de mero expediente'],
      ['2026-06-22T08:21:06', 'Conclusos ao relator ou relator substituto'],
      ['2026-06-19T16:20:57', 'Juntada de Petição de agravo interno cível (1208)'],
      ['2026-05-29T00:06:32', 'Publicado Decisão (expediente) em 29/05/2026.'],
      ['2026-05-29T00:06:32', 'Disponibilizado no DJ Eletrônico em 28/05/2026'],
      ['2026-05-29T00:06:32', 'Publicado Decisão (expediente) em 29/05/2026.'],
      ['2026-05-29T00:06:32', 'Disponibilizado no DJ Eletrônico em 28/05/2026'],
      ['2026-05-27T13:57:08', 'Juntada de malote digital'],
      ['2026-05-27T13:53:21', 'Enviado ao Diário da Justiça Eletrônico'],
      ['2026-05-27T13:53:21', 'Enviado ao Diário da Justiça Eletrônico'],
    ]);
  },
);

test(
  'TJCE (Latin-1 bytes): cover, the autora and her lawyer from another state (OAB BA), the association réu, the 11 ' +
    'movements with their "Documento:" suffixes',
  () => {
    const c = parsePjeDetail(page(TJCE));
    assert.deepEqual(cover(c), {
      numeroCnj: '30007399420258060100',
      tribunal: 'TJCE',
      sistema: 'pje',
      grau: 1,
      classe: 'PROCEDIMENTO DO JUIZADO ESPECIAL CÍVEL',
      assuntos: ['Rescisão do contrato e devolução do dinheiro'],
      orgao: '2ª Vara Cível da Comarca de Itapajé',
      foro: 'Comarca de Itapajé',
      juiz: null,
      distribuidoEm: '2025-06-06',
      valorCausaCentavos: null,
      situacao: null,
      segredo: false,
      processoReferencia: null,
      incidentes: [],
    });
    assert.deepEqual(parties(c), [
      ['ATIVO', 'AUTOR', 'MARIA DA PAZ FICTICIA DE EXEMPLO', '00000000787', 'FISICA', ['JONATHAN CORREA MILANEZ (BA 74896)']],
      ['PASSIVO', 'REU', 'ASBAPI-ASSOCIACAO BRASILEIRA DE APOSENTADOS, PENSIONISTAS E IDOSOS', '08812425000107', 'JURIDICA', []],
    ]);
    assert.deepEqual(movements(c), [
      ['2026-06-23T14:31:30', 'Juntada de certidão'],
      ['2025-07-08T08:16:12', 'Decorrido prazo de MARIA DA PAZ FICTICIA DE EXEMPLO em 07/07/2025 23:59.'],
      ['2025-06-17T01:29:09', 'Confirmada a comunicação eletrônica'],
      ['2025-06-12T00:00:00', 'Publicado Decisão em 12/06/2025. Documento: 159848930'],
      ['2025-06-11T00:00:00', 'Disponibilizado no DJ Eletrônico em 11/06/2025 Documento: 159848930'],
      ['2025-06-10T13:54:55', 'Expedida/certificada a comunicação eletrônica Documento: 159848930'],
      ['2025-06-10T13:54:50', 'Declarada incompetência'],
      ['2025-06-10T10:09:26', 'Conclusos para decisão'],
      ['2025-06-06T17:24:32', 'Expedição de Outros documentos.'],
      ['2025-06-06T17:24:30', 'Audiência Conciliação designada conduzida por Conciliador(a) em/para 07/07/2025 13:00, 2ª Vara Cível da Comarca de Itapajé.'],
      ['2025-06-06T17:24:30', 'Distribuído por sorteio'],
    ]);
  },
);

test(
  'TJRJ (re-serialised markup): labelled órgão, five autores with one lawyer each, two réus with no document (RÉU), the company and its lawyer, 15 ' +
    'movements out of time order as shown',
  () => {
    const c = parsePjeDetail(page(TJRJ));
    assert.deepEqual(cover(c), {
      numeroCnj: '09371657720258190001',
      tribunal: 'TJRJ',
      sistema: 'pje',
      grau: 1,
      classe: 'USUCAPIÃO',
      assuntos: ['Prestação de Serviços'],
      orgao: '3ª Vara Cível da Regional de Santa Cruz',
      foro: 'Comarca da Capital',
      juiz: null,
      distribuidoEm: '2025-08-28',
      valorCausaCentavos: null,
      situacao: null,
      segredo: false,
      processoReferencia: null,
      incidentes: [],
    });
    const carlos = ['CARLOS EDUARDO BARBOSA CARVALHO (RJ 188183)'];
    assert.deepEqual(parties(c), [
      ['ATIVO', 'AUTOR', 'ISAIAS FICTICIO EXEMPLAR', '00000000868', 'FISICA', carlos],
      ['ATIVO', 'AUTOR', 'ROSANA DE AMOSTRA EXEMPLAR', '00000000949', 'FISICA', carlos],
      ['ATIVO', 'AUTOR', 'RAMON DE FICTICIO MODELO', '00000001082', 'FISICA', carlos],
      ['ATIVO', 'AUTOR', 'JOSE AUGUSTO FICTICIO DA AMOSTRA', '00000001163', 'FISICA', carlos],
      ['ATIVO', 'AUTOR', 'GILSON FICTICIO TESTE', '00000001244', 'FISICA', carlos],
      ['PASSIVO', 'RÉU', 'Aurélia de Fictícia Exemplo', null, null, []],
      ['PASSIVO', 'RÉU', 'Cláudio Leão Exemplo', null, null, []],
      ['PASSIVO', 'RÉU', 'ARCOS DOURADOS COMERCIO DE ALIMENTOS LTDA', '42591651000143', 'JURIDICA', ['LUCIANA GOULART PENTEADO (RJ 208625)']],
    ]);
    assert.deepEqual(movements(c), [
      ['2026-03-09T00:35:22', 'Publicado Notificação em 09/03/2026.'],
      ['2026-03-09T00:35:20', 'Publicado Notificação em 09/03/2026.'],
      ['2026-03-07T01:38:52', 'Disponibilizado no DJ Eletrônico em 06/03/2026'],
      ['2026-03-07T01:38:52', 'Disponibilizado no DJ Eletrônico em 06/03/2026'],
      ['2026-03-05T12:39:37', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:36', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:39', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:35', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:34:49', 'Expedição de Certidão.'],
      ['2026-03-05T12:39:39', 'Migrada a tramitação do processo do sistema eletrônico originário para o outro sistema eletrônico'],
      ['2026-03-05T12:39:35', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:36', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:34', 'Expedição de Outros documentos.'],
      ['2026-03-05T12:39:33', 'Juntada de Petição de certidão de migração'],
      ['2026-03-05T12:39:38', 'Expedição de Outros documentos.'],
    ]);
  },
);

/** A search answer's links (the rows' other columns are the corpus test's, corpus.test.ts). */
const links = (a: ReturnType<typeof parsePjeSearch>) =>
  a.found ? { found: true, hits: a.hits.map(({ numeroCnj, idProcesso, detailPath }) => ({ numeroCnj, idProcesso, detailPath })) } : a;

test("search answers: the hit's CNJ, internal id and detail link on TJMA, TJCE and TJRJ; the empty answer is the explicit not-found", () => {
  assert.deepEqual(links(parsePjeSearch(page('pje-tjma-post_search_ok.html'))), {
    found: true,
    hits: [
      {
        numeroCnj: '08013415020258100114',
        idProcesso: '4508265',
        detailPath: '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=1f6dbfb309a20338ff463a149517791e8d45f1f2ae59ccb4',
      },
    ],
  });
  assert.deepEqual(links(parsePjeSearch(page('pje-tjce-search-3000739-94.2025.8.06.0100.html'))), {
    found: true,
    hits: [
      {
        numeroCnj: '30007399420258060100',
        idProcesso: '2704821',
        detailPath: '/pje1grau/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=d3c6bc60040333e74b89cfffb2ed8a5123ea68c823346fec',
      },
    ],
  });
  assert.deepEqual(links(parsePjeSearch(page('pje-tjrj-search-0937165-77.2025.8.19.0001.html'))), {
    found: true,
    hits: [
      {
        numeroCnj: '09371657720258190001',
        idProcesso: '6201424',
        detailPath: '/pje/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=2806a78e59d92fe3968caffc06ce4f0b87d850da828538ec',
      },
    ],
  });
  assert.deepEqual(parsePjeSearch(page('pje-tjma-post_search_empty.html')), { found: false });
});

test('a cut-short or unexpected page is a failure, never an empty case or a not-found', () => {
  const fails = (f: () => unknown) => assert.throws(f, PjePageError);
  for (const name of [TJMA, TJMA_2G, TJCE, TJRJ]) {
    const html = page(name);
    fails(() => parsePjeDetail(html.slice(0, Math.floor(html.length / 2))));
    fails(() => parsePjeDetail(`${html.slice(0, html.indexOf('processoEvento:tb'))}</html>`));
  }
  fails(() => parsePjeDetail(page('pje-tjma-listView.html')));
  fails(() => parsePjeDetail(page('pje-tjma-post_search_ok.html')));
  fails(() => parsePjeSearch(page(TJMA)));
  fails(() => parsePjeSearch('<html><body><p>Sistema em manutenção</p></body></html>'));
  const empty = page('pje-tjma-post_search_empty.html');
  fails(() => parsePjeSearch(empty.slice(0, empty.length / 2)));
  fails(() => parsePjeSearch(empty.replace('>resultados encontrados<', '><')));
  // A message in the panel (TJBA's captcha refusal is one; detectChallenge sees it first) is never "no hit".
  fails(() => parsePjeSearch(page('block-tjba-pje-search-captcha.html')));
});

test('one odd line degrades alone: a movement without its date is left out, a participant without its role keeps its name; each is an anomaly', () => {
  const anomalies = new Anomalies();
  const c = parsePjeDetail(page(TJMA).replace('25/05/2026 01:06:12 - Publicado', 'Publicado'), {}, anomalies);
  assert.equal(c.movimentos.length, 14);
  assert.deepEqual(anomalies.campos, ['movimento.linha']);
  const noRole = new Anomalies();
  assert.deepEqual(readParticipant('SEM PAPEL', noRole), { nome: 'SEM PAPEL', tipo: null, documento: null, tipoPessoa: null, oab: null });
  assert.deepEqual(noRole.campos, ['parte.tipo']);
});

test('participant lines: masked documents kept as shown, social names, OAB spellings, roles with accents', () => {
  assert.deepEqual(readParticipant('FULANO DE TAL - CPF: 639.XXX.XXX-XX (AUTOR)'), {
    nome: 'FULANO DE TAL',
    tipo: 'AUTOR',
    documento: '639.XXX.XXX-XX',
    tipoPessoa: 'FISICA',
    oab: null,
  });
  assert.deepEqual(readParticipant('EMPRESA - ME - CNPJ: **.***.***/0001-** (RÉU)'), {
    nome: 'EMPRESA - ME',
    tipo: 'RÉU',
    documento: '**.***.***/0001-**',
    tipoPessoa: 'JURIDICA',
    oab: null,
  });
  assert.deepEqual(readParticipant('ANA registrado(a) civilmente como JOÃO - OAB SP123456 - CPF: 000.000.101-54 (ADVOGADO)'), {
    nome: 'ANA',
    tipo: 'ADVOGADO',
    documento: '00000010154',
    tipoPessoa: 'FISICA',
    oab: { uf: 'SP', numero: '123456' },
  });
  assert.equal(readParticipant('NOVA EMPRESA SA - CNPJ: 12.ABC.345/01DE-35 (RÉU)')?.documento, '12ABC34501DE35');
  assert.equal(
    subjectLeaf('DIREITO DO CONSUMIDOR (1156)  -  Bancários (7752)  -  Crédito Direto ao Consumidor - CDC (14757'),
    'Crédito Direto ao Consumidor - CDC',
  );
  assert.equal(subjectLeaf('DIREITO CIVIL (899) - Obrigações (7681)'), 'Obrigações');
});
