/**
 * Two simulated services over the same bulletin board (board.ts):
 *
 * `<sandbox>/mural/mural-consulta-back-end/rest/publicacao/…`: the board's own back end, as wave2.md §D
 * saw it. `POST consulta/` demands `token`, a reCAPTCHA token only a person solving the challenge in a
 * browser obtains: without one it is a 400, and no token is ever valid here (a 403), so any search
 * reaching it from Tramita would fail, and the tests prove none does. `GET download/{id}` serves the act.
 *
 * `<sandbox>/provedor/mural/…`: the provider protocol of docs/providers.md, what an operator's
 * provider implements: `GET /publicacoes?parte=&advogado=&oab=&tribunal=&de=&ate=&pagina=` and
 * `GET /publicacoes/{id}/{documentKind}` (`documento` | `certidao`).
 */
import { parseIsoDay } from '../djen/dates.ts';
import { jsonResponse, type HandlerContext, type SimRequest, type SimResponse } from '../http.ts';
import { DJE_COURTS } from '../dje/editions.ts';
import { renderMuralDocument, type MuralBoard, type MuralItem } from './board.ts';

const BACK_END = '/mural-consulta-back-end/rest/publicacao';
export const PROVIDER_MURAL_PREFIX = '/mural';
const PAGE = 20;
const MAX_DAYS = 62;

const pdf = (body: Buffer, name: string): SimResponse => ({
  status: 200,
  headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}.pdf"` },
  body,
});

/** The board's back end: search refused without a human's token; download by id. */
export function muralBackEndHandler(board: MuralBoard) {
  return async (req: SimRequest): Promise<SimResponse> => {
    if (req.path.replace(/\/+$/, '') === `${BACK_END}/consulta` && req.method === 'POST') {
      let token: unknown;
      try {
        token = (JSON.parse(req.body.toString('utf8') || '{}') as { token?: unknown }).token;
      } catch {
        token = undefined;
      }
      if (typeof token !== 'string' || token === '') return jsonResponse(400, { mensagem: 'Token do reCAPTCHA não informado.' });
      return jsonResponse(403, { mensagem: 'Token do reCAPTCHA inválido ou expirado.' });
    }
    const download = new RegExp(`^${BACK_END}/download/([^/]+)$`).exec(req.path);
    if (download && req.method === 'GET') {
      const item = board.find(decodeURIComponent(download[1]));
      return item ? pdf(await renderMuralDocument(item, 'documento'), item.id) : jsonResponse(404, { mensagem: 'Publicação não encontrada.' });
    }
    return jsonResponse(404, { mensagem: 'Recurso não encontrado.' });
  };
}

function providerItem(i: MuralItem) {
  return {
    id: i.id,
    numero: i.numero,
    tribunal: i.tribunal,
    publicadoEm: i.publicadoEm,
    tipoDocumento: i.tipoDocumento,
    numeroProcesso: i.numeroProcesso,
    texto: i.texto,
    partes: i.partes,
  };
}

/** The provider protocol (docs/providers.md) answered from the board. */
export function muralProviderHandler(board: MuralBoard) {
  return async (req: SimRequest, ctx: HandlerContext): Promise<SimResponse> => {
    if (req.method !== 'GET' || !req.path.startsWith(PROVIDER_MURAL_PREFIX)) return jsonResponse(404, { erro: 'não encontrado' });
    const route = req.path.slice(PROVIDER_MURAL_PREFIX.length);
    if (route === '/publicacoes') {
      const q = req.query;
      const today = Math.floor(ctx.now / 86_400_000);
      const ate = q.get('ate') ? parseIsoDay(q.get('ate')!) : today;
      const de = q.get('de') ? parseIsoDay(q.get('de')!) : (ate ?? today) - 6;
      const pagina = Number(q.get('pagina') ?? '1');
      const tribunal = q.get('tribunal') ?? undefined;
      if (de === null || ate === null || de > ate || ate - de >= MAX_DAYS)
        return jsonResponse(400, { erro: 'período inválido: de/ate em yyyy-mm-dd, no máximo 62 dias' });
      if (!Number.isInteger(pagina) || pagina < 1) return jsonResponse(400, { erro: 'pagina inválida' });
      if (tribunal && !DJE_COURTS.includes(tribunal)) return jsonResponse(400, { erro: 'tribunal inválido' });
      if (!q.get('parte') && !q.get('advogado') && !q.get('oab')) return jsonResponse(400, { erro: 'informe parte, advogado ou oab' });
      const all = board.search({
        parte: q.get('parte') ?? undefined,
        advogado: q.get('advogado') ?? undefined,
        oab: q.get('oab') ?? undefined,
        tribunal,
        de,
        ate,
      });
      const items = all.slice((pagina - 1) * PAGE, pagina * PAGE);
      return jsonResponse(200, { publicacoes: items.map(providerItem), pagina, proximaPagina: pagina * PAGE < all.length, total: all.length });
    }
    const doc = /^\/publicacoes\/([^/]+)\/([^/]+)$/.exec(route);
    if (doc) {
      const kind = doc[2];
      if (kind !== 'documento' && kind !== 'certidao') return jsonResponse(400, { erro: 'documentKind inválido' });
      const item = board.find(decodeURIComponent(doc[1]));
      return item ? pdf(await renderMuralDocument(item, kind), `${item.id}-${kind}`) : jsonResponse(404, { erro: 'publicação não encontrada' });
    }
    return jsonResponse(404, { erro: 'não encontrado' });
  };
}
