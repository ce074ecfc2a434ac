/**
 * The structure of a PJe consulta pública page that the client and the parser rely on, as a set of
 * facts comparable between a real capture and the simulator's page (parity.test.ts): for each element
 * they read (by the same selectors), its tag/class/id path up a few ancestors, with ids' generated
 * numbers and the polo names folded (`j_id149:processoPartesPoloAtivoResumidoList:0:j_id290` →
 * `j_id#:POLOResumidoList:#:j_id#`), plus the labels and the shapes of the texts they parse. The JSON
 * comparator (sandbox/parity.ts) is for JSON; this is its HTML counterpart.
 */
import { parse, type HTMLElement } from 'node-html-parser';
import { shown } from '../../sources/consultas/pje/parse.ts';

export type PjePageKind = 'listView' | 'search' | 'detail' | 'viewer';

const POLO = /processoPartesPolo(Ativo|Passivo)|processoParteOutrosInteressados/g;
const normId = (id: string) => id.replace(POLO, 'POLO').replace(/\d+/g, '#');

function step(el: HTMLElement): string {
  const id = el.getAttribute('id');
  const classes = [...el.classList.values()].filter(Boolean).sort();
  return `${el.tagName.toLowerCase()}${classes.map((c) => `.${c}`).join('')}${id ? `#${normId(id)}` : ''}`;
}

/** `depth` levels: the element and its ancestors, innermost last. */
function path(el: HTMLElement, depth: number): string {
  const steps: string[] = [];
  for (let node: HTMLElement | null = el; node?.tagName && steps.length < depth; node = node.parentNode as HTMLElement | null) steps.unshift(step(node));
  return steps.join(' > ');
}

interface Probe {
  name: string;
  selector: string;
  depth: number;
  /** A shape its text must have (the parser's regex), reported as a fact when it matches. */
  text?: RegExp;
  /** Report the text itself (labels). */
  literal?: boolean;
  /** Report the attribute's shape. */
  attr?: [string, RegExp];
}

const CNJ = /\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/;
const VIEWER_PATH = '/ConsultaPublica/DetalheProcessoConsultaPublica/documentoSemLoginHTML\\.seam';
const DATE_TIME = '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}:\\d{2}';
/** A role in parentheses, with the gendered suffix some courts print (`(AUTOR)`, `(REQUERIDO(A))`): the system's shape, not one court's. */
const ROLE = /\((?:[^()]|\([A-Z/]{1,3}\))+\)/;
const ROLE_AT_END = new RegExp(`^.+ ${ROLE.source}$`);
const PROBES: Record<PjePageKind, Probe[]> = {
  listView: [
    { name: 'form', selector: 'form#fPP', depth: 1, attr: ['action', /\/ConsultaPublica\/listView\.seam;jsessionid=[^/]+$/] },
    { name: 'field', selector: 'form#fPP input[name^="fPP:"], form#fPP select[name^="fPP:"]', depth: 1 },
    { name: 'hidden', selector: 'form#fPP input[type="hidden"]', depth: 1 },
    {
      name: 'search script',
      selector: 'form#fPP script[id^="fPP:"]',
      depth: 1,
      text: /executarPesquisa=function\(\)\{A4J\.AJAX\.Submit\('fPP',null,\{.*'parameters':\{'fPP:j_id\d+':'fPP:j_id\d+'\}/,
    },
    {
      name: 'captcha compiled out',
      selector: 'form#fPP script',
      depth: 1,
      text: /function executarReCaptcha\(\) \{\s*if \(false\) \{\s*grecaptcha\.execute\(\);/,
    },
    { name: 'button', selector: 'input#fPP\\:searchProcessos', depth: 1, attr: ['onclick', /^return executarReCaptcha\(\);/] },
    { name: 'grid', selector: 'div[id="fPP:processosGridPanel"]', depth: 1 },
  ],
  search: [
    { name: 'row cell', selector: 'tbody[id$="processosTable:tb"] > tr > td', depth: 5 },
    {
      name: 'hit link',
      selector: 'tbody[id$="processosTable:tb"] a[onclick]',
      depth: 2,
      attr: ['onclick', /^openPopUp\('Consulta pública','\/[^']+\/ConsultaPublica\/DetalheProcessoConsultaPublica\/listView\.seam\?ca=[0-9a-f]{48}'\)$/],
    },
    { name: 'hit number', selector: 'tbody[id$="processosTable:tb"] b.btn-block', depth: 3, text: new RegExp(`^\\S+ ${CNJ.source} - .+$`) },
    { name: 'footer', selector: 'table[id$="processosTable"] tfoot span.text-muted', depth: 4, text: /^(\d+ )?resultados encontrados$/ },
    { name: 'messages', selector: 'dl.rich-messages', depth: 3 },
    { name: 'ajax', selector: 'meta[name="Ajax-Response"], meta[name="Ajax-Update-Ids"], span#ajax-view-state > input', depth: 2 },
  ],
  detail: [
    { name: 'label', selector: 'div.propertyView .name label', depth: 1, literal: true },
    { name: 'property', selector: 'div.propertyView', depth: 4 },
    { name: 'bold', selector: 'div.propertyView .value b', depth: 1, literal: true },
    { name: 'number', selector: 'div.propertyView .value', depth: 1, text: new RegExp(`^${CNJ.source}$`) },
    { name: 'distribution', selector: 'div.propertyView .value', depth: 1, text: /^\d{2}\/\d{2}\/\d{4}$/ },
    { name: 'class', selector: 'div.propertyView .value', depth: 1, text: /^[^()]+ \(\d+\)$/ },
    { name: 'subject path', selector: 'div.propertyView .value', depth: 1, text: /^.+ \(\d+$/ },
    { name: 'polo panel', selector: 'div[id$="ResumidoDiv"] .rich-panel-header', depth: 3 },
    { name: 'party row', selector: 'table[id$="ResumidoList"] > tbody[id$=":tb"] > tr', depth: 3 },
    { name: 'party', selector: 'table[id$="ResumidoList"] > tbody[id$=":tb"] > tr > td span.text-bold', depth: 5, text: ROLE_AT_END },
    { name: 'party document', selector: 'table[id$="ResumidoList"] span.text-bold', depth: 1, text: new RegExp(` - (CPF|CNPJ): \\S+ ${ROLE.source}$`) },
    {
      name: 'lawyer',
      selector: 'table[id$="ResumidoList"] > tbody[id$=":tb"] > tr > td > span > div > span[class=""]',
      depth: 5,
      text: /^.+ - OAB [A-Z]{2}\d+\S* .*\(ADVOGADO\)$/,
    },
    { name: 'party count', selector: 'div[id$="ResumidoDiv"] span.pull-right.text-muted', depth: 2, text: /^\d+ resultados encontrados$/ },
    { name: 'movement', selector: 'tbody[id$="processoEvento:tb"] > tr > td span[id]', depth: 6, text: /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} - .+$/ },
    { name: 'movement count', selector: 'div[id$="processoEventoPanel_body"] > span.pull-right.text-muted', depth: 2, text: /^\d+ resultados encontrados$/ },
    {
      name: 'document',
      selector: 'tbody[id$="processoDocumentoGridTab:tb"] > tr > td a[onclick*="documentoSemLoginHTML"]',
      depth: 3,
      text: /^Visualizar documentos\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} - .+ \(.+\)$/,
      attr: ['onclick', new RegExp(`^openPopUp\\('\\d+popUpDocumento', '[^']*${VIEWER_PATH}\\?ca=[0-9a-f]+&idProcessoDoc=\\d+'\\)`)],
    },
    { name: 'document count', selector: 'table[id$="processoDocumentoGridTab"] + span.pull-right.text-muted', depth: 2, text: /^\d+ resultados encontrados$/ },
    { name: 'document panel', selector: 'div[id$="processoDocumentoGridTabPanel_header"]', depth: 2, literal: true },
  ],
  // The public viewer (issue 53; reference/upstream/real/documents/README.md §3).
  viewer: [
    { name: 'sheet', selector: 'div.folha', depth: 3 },
    { name: 'sign image', selector: 'img[src$="/img/imgSign.png"]', depth: 2 },
    {
      name: 'signature',
      selector: 'small',
      depth: 2,
      text: new RegExp(`^Assinado eletronicamente por: .+ ${DATE_TIME} https?://\\S+/Processo/ConsultaDocumento/listView\\.seam ID do documento: \\d*$`),
    },
    { name: 'validation code', selector: 'span.text-center', depth: 2, text: /^\d{29}$/ },
    { name: 'pdf form', selector: 'form[action$="/DetalheProcessoConsultaPublica/documentoSemLoginHTML.seam"]', depth: 3 },
    { name: 'hidden', selector: 'form[action$="documentoSemLoginHTML.seam"] input[type="hidden"]', depth: 1 },
    {
      name: 'pdf link',
      selector: 'a[id$=":downloadPDF"]',
      depth: 2,
      text: /^Gerar PDF$/,
      attr: [
        'onclick',
        /jsfcljs\(document\.getElementById\('j_id\d+'\),\{'j_id\d+:downloadPDF':'j_id\d+:downloadPDF','ca':'[0-9a-f]+','idProcDocBin':'\d+'\},''\)/,
      ],
    },
  ],
};

/** The structural facts of a page of that kind, sorted, each once. */
export function pjeStructure(html: string, kind: PjePageKind): string[] {
  const root = parse(html);
  const facts = new Set<string>();
  for (const probe of PROBES[kind]) {
    for (const el of root.querySelectorAll(probe.selector)) {
      const text = shown(el);
      if (probe.text && !probe.text.test(text)) continue;
      let fact = `${probe.name}: ${path(el, probe.depth)}`;
      if (probe.literal) fact += ` "${text}"`;
      if (probe.attr) fact += probe.attr[1].test(el.getAttribute(probe.attr[0]) ?? '') ? ` [${probe.attr[0]} ok]` : ` [${probe.attr[0]} differs]`;
      if (probe.name === 'field' || probe.name === 'hidden') fact += ` name=${normId(el.getAttribute('name') ?? '')}`;
      facts.add(fact);
    }
  }
  return [...facts].sort();
}
