/**
 * `tramita worker` has no API, but its deliveries, job runs and upstream requests are counted in its
 * own process: with TRAMITA_WORKER_METRICS_PORT it serves `/metrics` (the background series and Node's
 * process series) and `/healthz` on that port, for Prometheus to scrape beside the API processes.
 */
import http from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { telemetry } from '../platform/observability/telemetry.ts';

export async function serveWorkerMetrics(host: string, port: number): Promise<{ address: string; close(): Promise<void> }> {
  const own = new Registry();
  collectDefaultMetrics({ register: own });
  const server = http.createServer((req, res) => {
    if (req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (req.url !== '/metrics') return void res.writeHead(404).end();
    void Promise.all([own.metrics(), telemetry.registry.metrics()]).then(
      ([processSeries, background]) => res.writeHead(200, { 'content-type': own.contentType }).end(`${processSeries}\n${background}`),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  const { port: bound } = server.address() as { port: number };
  return { address: `http://${host}:${bound}`, close: () => new Promise((r) => server.close(() => r())) };
}
