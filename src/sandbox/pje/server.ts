/**
 * The simulated PJe classic *consulta pública* of every PJe court of the sandbox, under
 * `<sandbox>/pje/<SIGLA>` (that is a court's base URL: scheme, host and context path):
 *   GET  /<SIGLA>/ConsultaPublica/listView.seam                        the search form (sets JSESSIONID)
 *   POST /<SIGLA>/ConsultaPublica/listView.seam;jsessionid=<session>   the A4J search by number, by the party's
 *                                                                      document or by OAB (issue 32): its hits (30 at most,
 *                                                                      as TJMA caps them) or PJe's empty answer
 *   GET  /<SIGLA>/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=<48 hex>   the detail page
 * with the real pages' markup (pages.ts). The search POST must carry what the real page's script sends
 * (session cookie, AJAXREQUEST, the script id, the ViewState), else the JSF error page a real server
 * gives. Knobs (`PUT /_sandbox/pje`): `captcha` (the search answers TJBA's "captcha não está correta"),
 * `antiBot` (every page is a Cloudflare "Just a moment..." 403), optionally for some `courts` only.
 * A slow host, 5xx, 429, hangs and cut pages come from the fault layer (upstream `pje`).
 */
import { createHash } from 'node:crypto';
import { brasiliaDateTime } from '../../platform/format.ts';
import type { SandboxDataset } from '../data/dataset.ts';
import { visibleMovementCount, type Movement, type SandboxCase } from '../data/model.ts';
import type { HandlerContext, SimRequest, SimResponse } from '../http.ts';
import { cloudflarePage, detailPage, listViewPage, PJE_UFS, pjeDateTime, searchAnswer, type PjeSite } from './pages.ts';
import { courtCasesBy, type SandboxSearch } from '../consultas/search.ts';
import { binIdOf, documentsGrid, viewerPage } from './documents.ts';
import { renderCasePdf } from '../portal/pdf.ts';

/** PJe's page sizes: the detail page shows the 15 newest movements. */
const MOVEMENTS_PER_PAGE = 15;
const NUMBER_FIELD = 'fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso';
const SEARCH_SCRIPT = 'fPP:j_id252';
export const PJE_CAPTCHA_MESSAGE = 'A verificação de captcha não está correta.';

export interface PjeKnobs {
  captcha?: boolean;
  antiBot?: boolean;
  /** Court siglas the knobs apply to; empty or omitted: every PJe court. */
  courts?: string[];
}

export class PjeKnobError extends RangeError {}

export class SandboxPje {
  #knobs: Required<PjeKnobs> = { captcha: false, antiBot: false, courts: [] };

  set(knobs: PjeKnobs): void {
    for (const k of Object.keys(knobs))
      if (!['captcha', 'antiBot', 'courts'].includes(k)) throw new PjeKnobError(`pje: unknown setting "${k}" (known: captcha, antiBot, courts)`);
    for (const k of ['captcha', 'antiBot'] as const)
      if (knobs[k] !== undefined && typeof knobs[k] !== 'boolean') throw new PjeKnobError(`pje: ${k} must be a boolean`);
    if (knobs.courts !== undefined && (!Array.isArray(knobs.courts) || knobs.courts.some((c) => typeof c !== 'string')))
      throw new PjeKnobError('pje: courts must be a list of court siglas');
    this.#knobs = { captcha: knobs.captcha ?? false, antiBot: knobs.antiBot ?? false, courts: (knobs.courts ?? []).map((c) => c.toUpperCase()) };
  }

  get(): Required<PjeKnobs> {
    return { ...this.#knobs, courts: [...this.#knobs.courts] };
  }

  reset(): void {
    this.set({});
  }

  on(knob: 'captcha' | 'antiBot', sigla: string): boolean {
    return this.#knobs[knob] && (this.#knobs.courts.length === 0 || this.#knobs.courts.includes(sigla));
  }
}

const html = (status: number, body: string, headers: Record<string, string | string[]> = {}): SimResponse => ({
  status,
  headers: { 'content-type': 'text/html;charset=UTF-8', ...headers },
  body: Buffer.from(body, 'utf8'),
});

/** What a Seam/JSF server answers to a post it cannot restore. */
const viewExpired = () =>
  html(
    500,
    '<html><head><title>Erro</title></head><body><h1>javax.faces.application.ViewExpiredException</h1><p>viewId:/ConsultaPublica/listView.xhtml - View could ' +
      'not be restored.</p></body></html>',
  );
const notFoundPage = () => html(404, '<html><head><title>Erro 404</title></head><body><h1>P&aacute;gina n&atilde;o encontrada</h1></body></html>');

function cookieOf(req: SimRequest, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  return new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header)?.[1];
}

/** A short class abbreviation as PJe prints before the number (`ProceComCiv`). */
const abbreviation = (classe: string) =>
  classe
    .split(/\s+/)
    .filter((w) => w.length > 2)
    .map((w) => w.slice(0, 5).replace(/^./, (c) => c.toUpperCase()))
    .join('')
    .slice(0, 14);

function movementText(m: Movement): string {
  return m.type.complemento ? `${m.type.nome} (${m.type.complemento.descricao})` : m.type.nome;
}

/** `NAME e outros (N)` as the hit row summarises a pole. */
function summary(c: SandboxCase, polo: 'ATIVO' | 'PASSIVO'): string {
  const names = c.partes.filter((p) => p.polo === polo).map((p) => p.person.nome);
  if (names.length === 0) return '';
  return names.length === 1 ? names[0] : `${names[0]} e outros (${names.length - 1})`;
}

/** "Atenção! A consulta está limitada a 30 resultados por vez." (TJMA's search answer). */
const PJE_MAX_HITS = 30;
const DOCUMENT_FIELD = 'fPP:dpDec:documentoParte';
const OAB_FIELDS = { numero: 'fPP:Decoration:numeroOAB', letra: 'fPP:Decoration:j_id231', uf: 'fPP:Decoration:estadoComboOAB' };

/** A search by the party's document (masked or not) or by OAB (number, letter, UF option index), from the posted form. */
function searchOf(form: URLSearchParams): SandboxSearch | null {
  const documento = (form.get(DOCUMENT_FIELD) ?? '').replace(/[^0-9A-Za-z]/g, '');
  if (documento !== '') return { documento };
  const numero = (form.get(OAB_FIELDS.numero) ?? '').replace(/\D/g, '');
  const uf = PJE_UFS[Number(form.get(OAB_FIELDS.uf))];
  if (numero !== '' && uf) return { oab: { uf, numero: `${numero}${(form.get(OAB_FIELDS.letra) ?? '').toUpperCase()}` } };
  return null;
}

export function pjeHandler(dataset: SandboxDataset, knobs: SandboxPje) {
  /** ca → case number: filled by the searches, as PJe's `ca` is only ever reached through one. */
  const byCa = new Map<string, string>();
  const caOf = (numero: string) => createHash('sha256').update(`${dataset.seed}:${numero}`).digest('hex').slice(0, 48);

  const caseOf = (sigla: string, numero: string, now: number): SandboxCase | undefined => {
    const c = dataset.visibleCase(numero, now);
    return c && c.court.sigla === sigla && c.court.sistemaAtual === 'PJe' ? c : undefined;
  };

  /** A document's viewer token (112 hex, as TJMA's) → its case and id: filled by the detail pages that link it. */
  const byDocCa = new Map<string, { numero: string; id: string }>();
  const docCaOf = (numero: string, id: string) =>
    createHash('sha256').update(`${dataset.seed}:${numero}:documento:${id}`).digest('hex').repeat(2).slice(0, 112);
  const documentOf = (sigla: string, ca: string, now: number) => {
    const kept = byDocCa.get(ca);
    const c = kept ? caseOf(sigla, kept.numero, now) : undefined;
    const doc = c?.documentos.find((d) => d.id === kept!.id && d.juntadaAt <= now);
    return c && doc ? { c, doc } : undefined;
  };

  return (req: SimRequest, ctx: HandlerContext): SimResponse | Promise<SimResponse> => {
    const m = /^\/([A-Za-z0-9-]+)(\/.*)$/.exec(req.path);
    if (!m) return notFoundPage();
    const sigla = m[1].toUpperCase();
    const rest = m[2];
    const site: PjeSite = { sigla, ctx: `/pje/${m[1]}`, session: `SBX${sigla}.pje-sandbox-1` };
    if (knobs.on('antiBot', sigla)) return html(403, cloudflarePage(createHash('sha256').update(req.path).digest('hex').slice(0, 16)));

    if (req.method === 'GET' && rest === '/ConsultaPublica/listView.seam') {
      const month = brasiliaDateTime(new Date(ctx.now).toISOString()).slice(0, 7).split('-').reverse().join('/');
      return html(200, listViewPage(site, month), { 'set-cookie': `JSESSIONID=${site.session}; Path=${site.ctx}; HttpOnly` });
    }
    if (req.method === 'POST' && rest === `/ConsultaPublica/listView.seam;jsessionid=${site.session}`) {
      const form = new URLSearchParams(req.body.toString('utf8'));
      const sent = form.get('AJAXREQUEST') === '_viewRoot' && form.get(SEARCH_SCRIPT) === SEARCH_SCRIPT && form.get('javax.faces.ViewState') === 'j_id1';
      if (!sent || cookieOf(req, 'JSESSIONID') !== site.session) return viewExpired();
      if (knobs.on('captcha', sigla)) return html(200, searchAnswer(site, [], PJE_CAPTCHA_MESSAGE));
      const numero = (form.get(NUMBER_FIELD) ?? '').replace(/\D/g, '');
      const byNumber = /^\d{20}$/.test(numero) ? caseOf(sigla, numero, ctx.now) : undefined;
      const query = searchOf(form);
      const found = byNumber
        ? [byNumber]
        : numero === '' && query
          ? courtCasesBy(dataset, (c) => caseOf(sigla, c.numero, ctx.now) === c, query, ctx.now).slice(0, PJE_MAX_HITS)
          : [];
      return html(
        200,
        searchAnswer(
          site,
          found.map((c) => {
            const inst = c.instances[0];
            const seen = inst.movements.slice(0, visibleMovementCount(inst, ctx.now));
            const last = seen[seen.length - 1];
            const ca = caOf(c.numero);
            byCa.set(ca, c.numero);
            return {
              numero: c.numero,
              idProcesso: 1_000_000 + c.index,
              ca,
              classe: inst.classe.nome.toUpperCase(),
              classeSigla: abbreviation(inst.classe.nome),
              assunto: inst.assuntos[0]?.nome ?? '',
              resumo: `${summary(c, 'ATIVO')} X ${summary(c, 'PASSIVO')}`,
              ultimo: last ? `${movementText(last)} (${pjeDateTime(last.at)})` : '',
            };
          }),
        ),
      );
    }
    if (req.method === 'GET' && rest === '/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam') {
      const numero = byCa.get(req.query.get('ca') ?? '');
      const c = numero ? caseOf(sigla, numero, ctx.now) : undefined;
      if (!c || cookieOf(req, 'JSESSIONID') !== site.session) return viewExpired();
      const inst = c.instances[0];
      const seen = inst.movements.slice(0, visibleMovementCount(inst, ctx.now));
      const docs = c.documentos.filter((d) => d.juntadaAt <= ctx.now).reverse();
      const documents = documentsGrid(site, docs, (d) => {
        const ca = docCaOf(c.numero, d.id);
        byDocCa.set(ca, { numero: c.numero, id: d.id });
        return ca;
      });
      return html(200, detailPage(site, { c, movements: seen.slice(-MOVEMENTS_PER_PAGE).reverse(), total: seen.length, movementText, documents }));
    }
    // The public viewer (issue 53): its token only in the session that rendered the page, else PJe's login.
    if (rest === '/ConsultaPublica/DetalheProcessoConsultaPublica/documentoSemLoginHTML.seam') {
      if (cookieOf(req, 'JSESSIONID') !== site.session) return { status: 302, headers: { location: `${site.ctx}/login.seam` }, body: Buffer.alloc(0) };
      if (req.method === 'GET') {
        const ca = req.query.get('ca') ?? '';
        const found = documentOf(sigla, ca, ctx.now);
        if (!found || req.query.get('idProcessoDoc') !== found.doc.id)
          return { status: 302, headers: { location: `${site.ctx}/errorUnexpected.seam?cid=1` }, body: Buffer.alloc(0) };
        return html(200, viewerPage(site, found.c, found.doc, ca));
      }
      // "Gerar PDF": the form's plain POST with the token and the binary id → the document's PDF.
      const form = new URLSearchParams(req.body.toString('utf8'));
      const found = documentOf(sigla, form.get('ca') ?? '', ctx.now);
      if (!found || form.get('j_id40:downloadPDF') !== 'j_id40:downloadPDF' || form.get('idProcDocBin') !== binIdOf(found.doc))
        return { status: 302, headers: { location: `${site.ctx}/errorUnexpected.seam?cid=1` }, body: Buffer.alloc(0) };
      return renderCasePdf(found.c, found.doc).then((body) => ({
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${found.c.numero}_${found.doc.id}.pdf"` },
        body,
      }));
    }
    if (req.method === 'GET' && rest === '/errorUnexpected.seam')
      return html(200, '<html><head><title>Erro</title></head><body><h1>Erro inesperado</h1></body></html>');
    return notFoundPage();
  };
}
