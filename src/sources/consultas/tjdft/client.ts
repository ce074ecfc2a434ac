/**
 * TJDFT's REST consultation flow (reference/upstream/real/README.md §4): the number → `idProcesso`,
 * then `/dados` and each pole's pages. The SPA's address goes as Referer and Origin (some routes
 * answer 403 without them). The API publishes no movements and no value: those stay empty and null.
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { baseUrlFor, type ConsultaClient, type ConsultaClientContext } from '../client.ts';
import type { ConsultaCase, ConsultaParty } from '../record.ts';
import { Anomalies, withAnomaly } from '../anomalies.ts';
import { MESSAGE_FAILURES, messageReason } from '../messages.ts';
import {
  dadosOf,
  emptyAnswerMessage,
  envelopeOf,
  participantOf,
  partiesOfPole,
  processIdOf,
  TjdftAnswerError,
  TjdftMessageError,
  type TjdftEnvelope,
} from './parse.ts';

/** The public SPA in front of the API, sent as Referer/Origin like the browser does. */
export const TJDFT_SPA = 'https://pje-consultapublica.tjdft.jus.br';
/** Pages read per pole at most (10+ lawyers per party exist; hundreds of pages do not). */
const MAX_PAGES = 20;

const POLES: [string, ConsultaParty['polo']][] = [
  ['poloAtivo', 'ATIVO'],
  ['poloPassivo', 'PASSIVO'],
  ['outrosInteressados', 'OUTROS'],
];

export function createTjdftClient(ctx: ConsultaClientContext): ConsultaClient {
  return {
    async fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<ConsultaCase | null> {
      const { grau, base } = baseUrlFor(ctx, numeroCnj);
      const session = ctx.http.session(ctx.source, ctx.label).at('busca');
      const anomalies = new Anomalies();
      const api = `${base}/v1`;
      const read = async (url: string): Promise<TjdftEnvelope> => {
        const page = await session.get(url, { signal, headers: { accept: 'application/json', referer: `${TJDFT_SPA}/`, origin: TJDFT_SPA } });
        if (page.status !== 200) throw session.fail('unavailable', `answered HTTP ${page.status} for ${new URL(url).pathname}`);
        try {
          return envelopeOf(JSON.parse(page.text));
        } catch (err) {
          if (err instanceof TjdftMessageError) throw messageFailure(err);
          if (err instanceof SyntaxError || err instanceof TjdftAnswerError)
            throw session.fail('malformed', `unexpected answer to ${new URL(url).pathname} (${err.message})`);
          throw err;
        }
      };
      const messageFailure = (err: TjdftMessageError): Error => {
        const failure = session.fail(MESSAGE_FAILURES[err.kind].failure, messageReason(err.kind, err.text));
        return err.kind === 'unknown' ? withAnomaly(failure, 'mensagem.desconhecida') : failure;
      };
      const guard = <T>(fn: () => T, what: string): T => {
        try {
          return fn();
        } catch (err) {
          if (err instanceof TjdftAnswerError) throw session.fail('malformed', `unexpected ${what} (${err.message})`);
          throw err;
        }
      };
      const search = await read(`${api}/processos?${new URLSearchParams({ page: '0', numeroProcesso: formatCnj(numeroCnj) })}`);
      const id = guard(() => processIdOf(search.result), 'search answer');
      if (id === null) {
        // An empty result is "not found" only when its messages say nothing else (an unknown one is quoted, never a not-found).
        try {
          emptyAnswerMessage(search);
        } catch (err) {
          if (err instanceof TjdftMessageError) throw messageFailure(err);
          throw err;
        }
        return null;
      }
      const path = `${api}/processos/${encodeURIComponent(id)}`;
      session.at('dados');
      const dadosAnswer = await read(`${path}/dados`);
      const dados = guard(() => dadosOf(dadosAnswer.result), 'dados');
      session.at('partes');
      const partes: ConsultaParty[] = [];
      for (const [route, polo] of POLES) {
        const items = [];
        for (let page = 0; page < MAX_PAGES; page++) {
          const answer = await read(`${path}/${route}?page=${page}`);
          if (!Array.isArray(answer.result)) throw session.fail('malformed', `${route} is not a list`);
          for (const item of answer.result as unknown[]) {
            const p = guard(() => participantOf(item, anomalies), route);
            if (p) items.push(p);
          }
          if (!answer.pageInfo || answer.pageInfo.current >= answer.pageInfo.last || (answer.result as unknown[]).length === 0) break;
          if (page === MAX_PAGES - 1) throw session.fail('malformed', `${route} has more than ${MAX_PAGES} pages`);
        }
        partes.push(...partiesOfPole(polo, items));
      }
      return {
        numeroCnj,
        tribunal: ctx.court.sigla,
        sistema: 'tjdft',
        grau,
        classe: dados.classe,
        assuntos: dados.assuntos,
        orgao: dados.orgao,
        foro: dados.foro,
        juiz: null,
        distribuidoEm: dados.distribuidoEm,
        valorCausaCentavos: null,
        situacao: null,
        segredo: dados.segredo,
        partes,
        movimentos: [],
        incidentes: [],
        processoReferencia: null,
        anomalias: anomalies.campos,
      };
    },
  };
}
