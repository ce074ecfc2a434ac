/**
 * The courts' public consultations for the sandbox's fictitious cases (issue 31), one context per
 * court below `/consultas/<sigla>` (lower case), speaking what the real systems speak:
 *
 *   e-SAJ (TJSP, TJAL, TJAC)   GET /cpopg/open.do                → 200, Set-Cookie JSESSIONID
 *                              GET /cpopg/search.do?…&dadosConsulta.valorConsultaNuUnificado=<CNJ>
 *                                  → 302 to show.do?processo.codigo=…&processo.foro=… (one hit),
 *                                    or 200 with the search form and the not-found notice
 *                              GET /cpopg/show.do?processo.codigo=… → the process page (esaj-page.ts)
 *                              GET /cpopg/search.do?cbPesquisa=DOCPARTE|NMPARTE|NUMOAB&dadosConsulta.valorConsulta=…
 *                                  → the same 302 on one hit, the hit list on several (esajListPage), the
 *                                    not-found notice on none (issue 32)
 *                              (the same under /cposg and /cposg5 with dePesquisaNuUnificado=<CNJ>: a case's
 *                              appeal under its origin number, in the 2nd degree's own markup, esajSecondDegreePage)
 *   TJDFT                      GET /v1/processos?page=0&numeroProcesso=<CNJ>, /v1/processos/{id}/dados,
 *                              /v1/processos/{id}/{poloAtivo|poloPassivo|outrosInteressados}?page=N
 *                              (the documented shapes, reference/upstream/real/README.md §4: no capture exists)
 *
 * Knobs (`/_sandbox/consultas`): `challenge` = `captcha` (e-SAJ's reCAPTCHA bounce: the search form
 * again with the reCAPTCHA v3 gate, as TJMS answers) or `anti_bot` (a Cloudflare "Just a moment..."
 * page, 403), for every request until reset; `message` = `refine` or `busy`: every e-SAJ `search.do`
 * answers e-SAJ's message box with that refusal (HTTP 200, as the real one); `numberList`: a number
 * search answers a one-row list of hits instead of redirecting to the case (as e-SAJ sometimes does);
 * `courts` (siglas) limits them to those courts. A slow host is the fault layer's `latencyMs` on `consultas`.
 */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { SandboxDataset } from '../data/dataset.ts';
import type { Instance, Party, SandboxCase } from '../data/model.ts';
import { jsonResponse, type SimResponse, type UpstreamHandler } from '../http.ts';
import { ESAJ_MESSAGES, esajCasePage, esajListPage, esajNotFoundPage, esajSecondDegreePage } from './esaj-page.ts';
import { courtCasesBy } from './search.ts';

export const ESAJ_COURTS = ['tjsp', 'tjal', 'tjac'];
/** The consultation systems the sandbox simulates: e-SAJ and TJDFT here, PJe's classic consulta pública at `/pje` (pje/server.ts). */
export const CONSULTA_SYSTEMS: readonly string[] = ['esaj', 'tjdft', 'pje'];

export type ConsultaChallenge = 'captcha' | 'anti_bot';
export type ConsultaMessage = 'refine' | 'busy';

export class SandboxConsultas {
  #challenge: ConsultaChallenge | null = null;
  #message: ConsultaMessage | null = null;
  #numberList = false;
  #courts: string[] = [];
  set(v: { challenge?: unknown; message?: unknown; numberList?: unknown; courts?: unknown }): void {
    if (typeof v !== 'object' || v === null) throw new RangeError('consultas: expected a JSON object');
    const challenge = v.challenge ?? null;
    const message = v.message ?? null;
    if (challenge !== null && challenge !== 'captcha' && challenge !== 'anti_bot')
      throw new RangeError('consultas: challenge must be captcha, anti_bot or null');
    if (message !== null && message !== 'refine' && message !== 'busy') throw new RangeError('consultas: message must be refine, busy or null');
    if (v.numberList !== undefined && typeof v.numberList !== 'boolean') throw new RangeError('consultas: numberList must be a boolean');
    if (v.courts !== undefined && (!Array.isArray(v.courts) || v.courts.some((c) => typeof c !== 'string')))
      throw new RangeError('consultas: courts must be a list of court siglas');
    this.#challenge = challenge;
    this.#message = message;
    this.#numberList = v.numberList === true;
    this.#courts = ((v.courts as string[] | undefined) ?? []).map((c) => c.toLowerCase());
  }
  get(): { challenge: ConsultaChallenge | null; message: ConsultaMessage | null; numberList: boolean; courts: string[] } {
    return { challenge: this.#challenge, message: this.#message, numberList: this.#numberList, courts: [...this.#courts] };
  }
  reset(): void {
    this.#challenge = null;
    this.#message = null;
    this.#numberList = false;
    this.#courts = [];
  }
  #applies(sigla: string): boolean {
    return this.#courts.length === 0 || this.#courts.includes(sigla);
  }
  /** The challenge this court's requests get (lower-case sigla), if any. */
  challengeOf(sigla: string): ConsultaChallenge | null {
    return this.#applies(sigla) ? this.#challenge : null;
  }
  /** The refusal this court's e-SAJ message box answers every search with, if any. */
  messageOf(sigla: string): ConsultaMessage | null {
    return this.#applies(sigla) ? this.#message : null;
  }
  /** Whether this court answers a number search with a one-row list. */
  numberListOf(sigla: string): boolean {
    return this.#applies(sigla) && this.#numberList;
  }
}

const html = (status: number, body: string, headers: Record<string, string | string[]> = {}): SimResponse => ({
  status,
  headers: { 'content-type': 'text/html;charset=UTF-8', ...headers },
  body: Buffer.from(body),
});

/** What TJMS's e-SAJ answers a search behind its reCAPTCHA v3 gate: the form again, no case. */
function recaptchaBounce(app: string): SimResponse {
  return html(
    200,
    `<!DOCTYPE html>\r\n<html lang="pt-BR"><head><meta charset="UTF-8"><title>e-SAJ (sandbox)</title>
<script src="https://www.google.com/recaptcha/api.js?render=6LeSANDBOXSANDBOXSANDBOXSANDBOXSANDBOX00"></script></head><body>
<form id="formConsulta" method="GET" action="/${app}/search.do"><input type="hidden" id="recaptcha_response_token" name="recaptcha_response_token" value=""/><input id="uuidCaptcha" type="hidden" name="uuidCaptcha" value=""/></form>
<script>grecaptcha.ready(function () { grecaptcha.execute('6LeSANDBOXSANDBOXSANDBOXSANDBOXSANDBOX00', {action: 'consulta'}).then(function (token) { document.getElementById('recaptcha_response_token').value = token; }); });</script>
</body></html>\r\n`,
  );
}

/** Cloudflare's managed challenge, as TJPB's PJe answers. */
function cloudflareChallenge(): SimResponse {
  return html(
    403,
    `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head><body><div class="main-wrapper" role="main"><div class="main-content"><noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript></div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'sandbox',cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=0000000000000000';document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`,
    { 'cf-mitigated': 'challenge', server: 'cloudflare' },
  );
}

/** The instance a degree's page shows: the first-degree one (or the only one) for cpopg, the second's for cposg. */
function instanceOf(c: SandboxCase, segundo: boolean): Instance | undefined {
  return segundo
    ? c.instances.find((i) => i.grau === 'G2' || i.grau === 'TR')
    : (c.instances.find((i) => i.grau !== 'G2' && i.grau !== 'TR' && i.grau !== 'SUP') ?? c.instances[0]);
}

function esaj(dataset: SandboxDataset, knobs: SandboxConsultas, sigla: string, app: string, route: string, query: URLSearchParams, now: number): SimResponse {
  const segundo = app !== 'cpopg';
  const refusal = knobs.messageOf(sigla);
  if (refusal && route === 'search.do') return html(200, esajNotFoundPage(app, ESAJ_MESSAGES[refusal]));
  if (route === 'open.do')
    return html(200, esajNotFoundPage(app).replace(/<div id="spwTabelaMensagem">[\s\S]*?<\/div>\n/, ''), {
      'set-cookie': `JSESSIONID=SANDBOX${now.toString(36).toUpperCase()}.${sigla}; Path=/${app}; HttpOnly`,
    });
  const find = (cnj: string | null) => {
    const c = cnj ? dataset.visibleCase(cnj.replace(/\D/g, ''), now) : undefined;
    return c && c.court.sigla.toLowerCase() === sigla && instanceOf(c, segundo) ? c : undefined;
  };
  const kind = query.get('cbPesquisa');
  if (route === 'search.do' && !segundo && kind && kind !== 'NUMPROC') {
    const valor = query.get('dadosConsulta.valorConsulta') ?? '';
    const oab = /^(\d+[A-Z]?)([A-Z]{2})$/.exec(valor.toUpperCase());
    const q =
      kind === 'DOCPARTE'
        ? { documento: valor }
        : kind === 'NMPARTE'
          ? { nome: valor }
          : kind === 'NUMOAB' && oab
            ? { oab: { uf: oab[2]!, numero: oab[1]! } }
            : null;
    const hits = q ? courtCasesBy(dataset, (c) => c.court.sigla.toLowerCase() === sigla && instanceOf(c, false) !== undefined, q, now) : [];
    if (hits.length === 0) return html(200, esajNotFoundPage(app));
    if (hits.length === 1)
      return {
        status: 302,
        headers: { location: `show.do?processo.codigo=SBX${hits[0]!.numero}&processo.foro=${hits[0]!.numero.slice(16, 20)}` },
        body: Buffer.alloc(0),
      };
    return html(200, esajListPage(app, hits, hits.length));
  }
  if (route === 'search.do') {
    const c = find(segundo ? query.get('dePesquisaNuUnificado') : query.get('dadosConsulta.valorConsultaNuUnificado'));
    if (!c) return html(200, esajNotFoundPage(app));
    if (knobs.numberListOf(sigla)) return html(200, esajListPage(app, [c], 1));
    return { status: 302, headers: { location: `show.do?processo.codigo=SBX${c.numero}&processo.foro=${c.numero.slice(16, 20)}` }, body: Buffer.alloc(0) };
  }
  if (route === 'show.do') {
    const c = find(query.get('processo.codigo')?.replace(/^SBX/, '') ?? null);
    if (!c) return html(200, esajNotFoundPage(app));
    return html(200, segundo ? esajSecondDegreePage(c, instanceOf(c, true)!, now) : esajCasePage(c, instanceOf(c, false)!, now));
  }
  return html(404, '<html><body>Página não encontrada</body></html>');
}

const ok = (result: unknown, pageInfo?: unknown) => jsonResponse(200, { status: 'ok', code: '200', messages: [], result, ...(pageInfo ? { pageInfo } : {}) });

/** A participant as TJDFT's API writes it: `NAME - OAB UF<num> - CPF: … (TIPO)`. */
function participante(nome: string, tipo: string, documento: string | null, oab?: { uf: string; numero: string } | null): string {
  const doc =
    documento === null
      ? ''
      : documento.length === 11
        ? ` - CPF: ${documento.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4')}`
        : ` - CNPJ: ${documento.replace(/^(\w{2})(\w{3})(\w{3})(\w{4})(\w{2})$/, '$1.$2.$3/$4-$5')}`;
  return `${nome}${oab ? ` - OAB ${oab.uf}${oab.numero}` : ''}${doc} (${tipo})`;
}

const PAGE_SIZE = 5;

function tjdft(dataset: SandboxDataset, path: string, query: URLSearchParams, now: number): SimResponse {
  const tjdftCase = (id: string) => {
    const c = dataset.visibleCase(Buffer.from(id, 'base64url').toString('utf8'), now);
    return c?.court.sigla === 'TJDFT' ? c : undefined;
  };
  if (path === '/v1/processos') {
    const c = dataset.visibleCase((query.get('numeroProcesso') ?? '').replace(/\D/g, ''), now);
    if (c?.court.sigla !== 'TJDFT') return ok([], { current: 0, last: 0, size: 20, count: 0 });
    return ok([{ idProcesso: Buffer.from(c.numero).toString('base64url'), numeroProcesso: formatCnj(c.numero) }], { current: 0, last: 0, size: 20, count: 1 });
  }
  const m = /^\/v1\/processos\/([A-Za-z0-9_-]+)\/(dados|poloAtivo|poloPassivo|outrosInteressados)$/.exec(path);
  const c = m ? tjdftCase(m[1]!) : undefined;
  if (!m || !c) return jsonResponse(404, { status: 'error', code: '404', messages: ['Processo não encontrado'], result: null });
  const inst = instanceOf(c, false)!;
  if (m[2] === 'dados') {
    return ok({
      numeroProcesso: formatCnj(c.numero),
      classeJudicial: `${inst.classe.nome.toUpperCase()} (${inst.classe.codigo})`,
      assunto: inst.assuntos.map((a) => `${a.nome} (${a.codigo})`).join(' - '),
      orgaoJulgador: inst.orgao.nome,
      dataDistribuicao: new Date(inst.ajuizadoAt).toISOString().slice(0, 19),
      jurisdicao: 'BRASÍLIA',
      endereco: 'Endereço fictício (sandbox)',
    });
  }
  const polo = { poloAtivo: 'ATIVO', poloPassivo: 'PASSIVO', outrosInteressados: 'OUTROS' }[m[2]]!;
  const rows = c.partes
    .filter((p: Party) => p.polo === polo)
    .flatMap((p) => [
      { participante: participante(p.person.nome, p.tipo, p.person.documento), nome: p.person.nome, tipo: p.tipo, procuradoria: null },
      ...p.advogados.map((a) => ({ participante: participante(a.nome, 'ADVOGADO', null, a.oab), nome: a.nome, tipo: 'ADVOGADO', procuradoria: null })),
    ]);
  const last = Math.max(0, Math.ceil(rows.length / PAGE_SIZE) - 1);
  const page = Math.min(Number(query.get('page') ?? 0) || 0, last);
  return ok(rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE), { current: page, last, size: PAGE_SIZE, count: rows.length });
}

export function consultasHandler(o: { dataset: SandboxDataset; knobs: SandboxConsultas }): UpstreamHandler {
  return (req, ctx) => {
    const m = /^\/([a-z0-9]+)(\/.*)?$/.exec(req.path);
    if (!m) return html(404, '<html><body>Página não encontrada</body></html>');
    const [, sigla, rest = '/'] = m;
    const challenge = o.knobs.challengeOf(sigla!);
    const esajRoute = /^\/(cpopg|cposg5?)\/([a-z]+\.do)$/.exec(rest);
    if (challenge === 'anti_bot') return cloudflareChallenge();
    if (ESAJ_COURTS.includes(sigla!) && esajRoute) {
      if (challenge === 'captcha' && esajRoute[2] === 'search.do') return recaptchaBounce(esajRoute[1]!);
      return esaj(o.dataset, o.knobs, sigla!, esajRoute[1]!, esajRoute[2]!, req.query, ctx.now);
    }
    if (sigla === 'tjdft' && rest.startsWith('/v1/')) return tjdft(o.dataset, rest, req.query, ctx.now);
    return html(404, '<html><body>Página não encontrada</body></html>');
  };
}
