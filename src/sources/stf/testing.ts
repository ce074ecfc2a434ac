/**
 * The real STF answers (fixtures/stf-1..4.json, copied byte for byte from
 * reference/upstream/real/, provenance beside each) and a stand-in that replays them over HTTP on
 * 127.0.0.1, for tests that point the connector, or the whole of Tramita, at what the STF really sends.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `stf-1` (a divulgação day's page 1 of 5 items, total 742), `stf-2` (past the end), `stf-3` (the 422), `stf-4` (`/ultimo-dje`). */
export type StfCaptureName = 'stf-1' | 'stf-2' | 'stf-3' | 'stf-4';

export function stfCaptureBytes(name: StfCaptureName): Buffer {
  return readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url));
}

export function stfCapture<T = any>(name: StfCaptureName): T {
  return JSON.parse(stfCaptureBytes(name).toString('utf8')) as T;
}

/** The day stf-1.json was asked for, and what `/ultimo-dje` said then (stf-4.json). */
export const CAPTURED_DAY = '2026-08-13';
export const CAPTURED_LAST_EDITION = '2026-08-14';

const API = '/decisoes-publicacoes/api/public';
const BRASILIA_MS = 3 * 3_600_000;

export interface StfReplay {
  /** The host to give the connector (`TRAMITA_STF_URL`). */
  url: string;
  /** What it replays, changeable between requests: each day's pages, and the body of `/ultimo-dje`. */
  days: Record<string, Buffer[]>;
  ultimoDje: Buffer;
  /** Every POST /publicacoes body received. */
  searches: { pagina: number; quantidade: number; day: string }[];
  close(): Promise<void>;
}

/**
 * Replays real answers: `/ultimo-dje` is stf-4.json (with the session cookies), a search for a day in
 * `days` gets that day's recorded pages in order, any other page or day the real past-the-end answer
 * (stf-2.json), `quantidade` over 500 (or every search, with `refuse`) the real 422 (stf-3.json), a
 * search without the session's token the 403 the STF sends.
 */
export async function startStfReplay(o: { days?: Record<string, Buffer[]>; refuse?: boolean } = {}): Promise<StfReplay> {
  const token = 'replay-token';
  const searches: StfReplay['searches'] = [];
  let replay: StfReplay;
  const server = createServer(async (req, res) => {
    const send = (status: number, body: Buffer | string, headers: Record<string, string | string[]> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (req.method === 'GET' && req.url === `${API}/ultimo-dje`) {
      return send(200, replay.ultimoDje, { 'set-cookie': [`XSRF-TOKEN=${token}; Path=/`, 'JSESSIONID=replay; Path=/; HttpOnly'] });
    }
    if (req.method !== 'POST' || req.url !== `${API}/publicacoes`) return send(404, '{}');
    const body = JSON.parse((await bodyOf(req)).toString('utf8')) as { pagina: number; quantidade: number; data: number };
    if (req.headers['x-xsrf-token'] !== token) return send(403, 'An expected CSRF token cannot be found', { 'content-type': 'text/plain' });
    const day = new Date(body.data - BRASILIA_MS).toISOString().slice(0, 10);
    searches.push({ pagina: body.pagina, quantidade: body.quantidade, day });
    if (body.quantidade > 500 || o.refuse) return send(422, stfCaptureBytes('stf-3'));
    send(200, replay.days[day]?.[body.pagina - 1] ?? stfCaptureBytes('stf-2'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  replay = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    days: o.days ?? { [CAPTURED_DAY]: [stfCaptureBytes('stf-1')] },
    ultimoDje: stfCaptureBytes('stf-4'),
    searches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return replay;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A page for a day after the last edition, built from a real item of stf-1.json (the lawyer with
 * `OAB's (31442/DF, 83471/MG, 261006/RJ, 518968/SP)`): another id, divulged on `day` and not yet
 * published (`publicacao: null`, as the STF sends items whose edition is not out), or published on
 * `o.publicacao` once it is.
 */
export function unpublishedPage(day: string, o: { id?: number; publicacao?: string | null } = {}): Buffer {
  const page = stfCapture('stf-1');
  const item = { ...page.publicacoes[4], id: o.id ?? 993200, divulgacao: `${day}T10:15:30`, publicacao: o.publicacao ?? null };
  return Buffer.from(JSON.stringify({ ...page, publicacoes: [item], total: 1 }));
}
