/**
 * A webhook receiver on loopback for tests: records every delivery (headers, raw bytes, parsed body) and
 * answers 200, or what `status()` says at that moment (a receiver that is down, then back).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

export async function receiver(status: () => number = () => 200): Promise<{ url: string; received: Delivery[]; close(): Promise<void> }> {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(status()).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** `X-Service-Signature` of `raw` under the account's secret (the secret string's UTF-8 bytes, DESIGN.md §6). */
export const signature = (secret: string, raw: Buffer): string => `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex')}`;
