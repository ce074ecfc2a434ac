/** A client of the simulated STF API for its tests: the handshake (session cookies), a search, a day's window. */
import type { Sandbox } from '../server.ts';
import { STF_API_PREFIX } from './server.ts';

const BRT = 3 * 3_600_000;

export interface StfSession {
  status: number;
  /** `/ultimo-dje`'s body (a JSON string day). */
  day: string;
  cookie: string;
  token: string;
}

/** `data`/`dataFim` of one Brasília day, as the STF's search takes them (epoch ms). */
export function dayWindow(day: string): { data: number; dataFim: number } {
  const start = Date.parse(`${day}T00:00:00.000Z`) + BRT;
  return { data: start, dataFim: start + 86_400_000 - 1 };
}

export function stfClient(sb: Pick<Sandbox, 'stfUrl'>) {
  const api = `${sb.stfUrl}${STF_API_PREFIX}`;
  return {
    /** GET /ultimo-dje: the day and the session (the cookies a client keeps). */
    async handshake(): Promise<StfSession> {
      const res = await fetch(`${api}/ultimo-dje`);
      const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
      const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
      return { status: res.status, day: (await res.json()) as string, cookie: cookies.join('; '), token };
    },
    /** POST /publicacoes with the session (or another `token`), the body's defaults those of the real client. */
    async search(session: { cookie: string; token: string }, body: Record<string, unknown>, token = session.token): Promise<{ status: number; text: string }> {
      const res = await fetch(`${api}/publicacoes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-xsrf-token': token },
        body: JSON.stringify({
          termo: '',
          processo: '',
          pagina: 1,
          quantidade: 500,
          tipoPesquisa: ['DIVULGACAO'],
          filtros: { Tipo: [], Relator: [], Sessão: [], Colegiado: [] },
          ...body,
        }),
      });
      return { status: res.status, text: await res.text() };
    },
  };
}
