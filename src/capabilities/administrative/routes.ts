/**
 * Covered bodies and administrative processes by NUP (spec §4.7). The NUP is validated (400
 * INVALID_NUP) and its protocol unit must name a listed body (422 BODY_NOT_COVERED) before the
 * source is asked. Lookups are async-eligible (Protocolo Integrado is an HTML site, slow enough that
 * a 202 is normal); charged once, when they answer a process; "not found" and every source failure
 * are uncharged errors.
 */
import { askedCallback } from '../../platform/http/callback-flag.ts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import type { EventData } from '../../platform/events/catalog.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { parseNup, type Nup } from '../../platform/identifiers/nup.ts';
import type { Services } from '../../platform/services.ts';
import { processView } from './present.ts';
import { AdministrativeProcess, BodiesList, LookupBody, NupParams } from './schemas.ts';
import type { AdministrativeService, Lookup } from './service.ts';

const TAG = 'Processos administrativos';
const QUERY_TYPE = 'administrativos.nup';

/** How the body asks for the callback, in both vocabularies. */
const CALLBACK_FIELD = '`enviar_callback` (or `send_callback`)';

export function administrativeRoutes(app: FastifyInstance, s: Services, service: AdministrativeService): void {
  const { bodies } = service;

  defineRoute(app, {
    method: 'GET',
    url: '/v1/orgaos-administrativos',
    meta: {
      class: 'reference',
      auth: true,
      tag: TAG,
      summary: 'Covered administrative bodies',
      description:
        "Free. The federal bodies whose processes Tramita looks up by NUP: their protocol-unit codes (a NUP's first five digits), sigla, name, sphere and " +
        "what can be fetched for each, with the list's source and date (TRAMITA_ORGAOS_FILE).",
    },
    schema: { data: BodiesList },
    handler: async () => {
      const l = bodies.list;
      const recursos = { consulta: true, tramitacoes: true, monitoramento: true, documentos: false };
      const orgaos = l.orgaos.map((b) => ({
        codigo: b.codigos[0],
        codigos: b.codigos,
        sigla: b.sigla,
        nome: b.nome,
        esfera: b.esfera,
        natureza: b.natureza,
        fonte: l.consulta,
        recursos,
      }));
      return { data: { fonte: l.fonte, fonteUrl: l.fonteUrl, data: l.data, quantidade: orgaos.length, orgaos } };
    },
  });

  const answer = (l: Lookup) => ({
    data: processView(l.row, l.body, s.sources.administrative.info.sandbox),
    meta: {
      source: {
        name: l.row.fonte,
        sandbox: s.sources.administrative.info.sandbox,
        servedFrom: l.fromSource ? 'source' : 'store',
        consultadoEm: l.row.coletado_em,
      },
    },
  });
  const DESCRIPTION =
    'Answered from the store when its copy is younger than TRAMITA_ADMINISTRATIVE_FRESH_MINUTES, else from Protocolo Integrado (async-eligible: 202 and ' +
    '`/v1/requests/{id}` past the synchronous window). ' +
    '400 INVALID_NUP for a malformed NUP, 422 BODY_NOT_COVERED when its protocol unit is none of GET /v1/orgaos-administrativos; 404 ' +
    'ADMINISTRATIVE_PROCESS_NOT_FOUND when the source has none; ' +
    'a failure of the source, a captcha page included, is 503 SOURCE_UNAVAILABLE / 504 SOURCE_TIMEOUT. None of these is charged. The result: subject, ' +
    'interested parties as published, the body, the tramitações with dates and units (newest first), and the source.';

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/administrativos/nup/:nup',
    meta: { class: 'lookup', auth: true, charge: QUERY_TYPE, async: true, tag: TAG, summary: 'Administrative process by NUP', description: DESCRIPTION },
    schema: { params: NupParams, data: AdministrativeProcess },
    handler: async (req) => {
      const nup = parseNup(req.params.nup, 'nup');
      return answer(await service.lookup(nup, service.bodies.of(nup, 'nup'), s.config.administrativeFreshMinutes));
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/processos/administrativos/nup/:nup',
    meta: {
      class: 'lookup',
      auth: true,
      charge: QUERY_TYPE,
      async: true,
      tag: TAG,
      summary: 'Administrative process by NUP, with options',
      description: `${DESCRIPTION} Body (optional): \`orgao\` (or \`origem\`), \`fonte\`, \`dias_ultima_atualizacao\`, ${CALLBACK_FIELD}.`,
    },
    schema: { params: NupParams, body: LookupBody, data: AdministrativeProcess },
    handler: async (req) => {
      const nup = parseNup(req.params.nup, 'nup');
      const body = service.bodies.of(nup, 'nup');
      const o = req.body ?? {};
      checkAskedBody(service, nup, body.sigla, o.orgao ?? o.origem, o.orgao !== undefined ? 'orgao' : 'origem');
      const accountId = req.auth!.account.id;
      const callback = await askedCallback(s.webhooks.configs, accountId, o);
      const maxAge = o.dias_ultima_atualizacao !== undefined ? o.dias_ultima_atualizacao * 1440 : s.config.administrativeFreshMinutes;
      let result: ReturnType<typeof answer>;
      try {
        result = answer(await service.lookup(nup, body, maxAge));
      } catch (err) {
        if (callback) {
          const e = toApiError(err);
          await sendCallback(s, accountId, req.id, nup, { status: 'ERRO', erro: { code: e.code, message: e.message } });
        }
        throw err;
      }
      if (callback) await sendCallback(s, accountId, req.id, nup, { status: 'SUCESSO', processo: result.data });
      return result;
    },
  });
}

/** `orgao` names the body to ask: it must be the NUP's own (a NUP is only ever at its own body). */
function checkAskedBody(service: AdministrativeService, nup: Nup, sigla: string, asked: string | undefined, field: string): void {
  if (asked === undefined) return;
  const named = service.bodies.find(asked);
  if (!named)
    throw new ApiError('INVALID_PARAMETER', `"${asked}" is not a body of GET /v1/orgaos-administrativos (sigla or protocol-unit code).`, { field, in: 'body' });
  if (named.sigla !== sigla)
    throw new ApiError('INVALID_PARAMETER', `NUP ${nup.masked} belongs to ${sigla} (protocol unit ${nup.digits.slice(0, 5)}), not ${named.sigla}.`, {
      field,
      in: 'body',
    });
}

/** `resultado_processo_async` to the account webhook: the lookup asked with `enviar_callback` ended. */
async function sendCallback(
  s: Services,
  accountId: string,
  requestId: string,
  nup: Nup,
  outcome: Pick<EventData<'resultado_processo_async'>, 'status' | 'processo' | 'erro'>,
): Promise<void> {
  await s.db.transaction().execute((trx) =>
    s.events.record(trx, {
      kind: 'resultado_processo_async',
      numeroCnj: null,
      tribunal: null,
      accountId,
      source: s.sources.administrative.info.name,
      data: { requestId, nup: nup.masked, tipo: 'PROCESSO_ADMINISTRATIVO', ...outcome },
    }),
  );
}
