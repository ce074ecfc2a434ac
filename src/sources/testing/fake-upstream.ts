/**
 * A loopback HTTP server (127.0.0.1, random port) standing in for an upstream in connector tests:
 * records every request in the shape its subclass makes, answers what the test's handler returns,
 * after an optional delay, or hangs up. Subclasses: the DataJud and DJEN fakes. Test-only code.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim (wins over `json`). */
  text?: string;
  /** Sent verbatim as octet-stream (wins over `text`). */
  body?: Buffer;
  /** Wait before answering. */
  delayMs?: number;
  /** Drop the connection without answering. */
  hangUp?: boolean;
}

export type Handler<R> = (req: R) => Reply | Promise<Reply>;

/** What a request looked like on the wire; the subclass turns it into its recorded shape. */
export interface RawRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export abstract class FakeUpstream<R> {
  readonly requests: R[] = [];
  handler: Handler<R>;
  url = '';
  readonly #server: Server;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  protected constructor(handler: Handler<R>) {
    this.handler = handler;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on(
        'end',
        () => void this.#answer({ method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, res),
      );
    });
  }

  protected abstract record(req: RawRequest): R;

  /** Listens on loopback; `url` is set once this resolves. */
  protected async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #answer(raw: RawRequest, res: ServerResponse): Promise<void> {
    const recorded = this.record(raw);
    this.requests.push(recorded);
    const reply = await this.handler(recorded);
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.#timers.delete(t);
          resolve();
        }, reply.delayMs);
        this.#timers.add(t);
      });
    }
    if (res.destroyed) return;
    if (reply.hangUp) {
      res.socket?.destroy();
      return;
    }
    const body = reply.body ?? Buffer.from(reply.text ?? JSON.stringify(reply.json ?? {}));
    res.writeHead(reply.status ?? 200, { 'content-type': reply.body ? 'application/octet-stream' : 'application/json', ...reply.headers });
    res.end(body);
  }
}
