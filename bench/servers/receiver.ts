/**
 * A webhook receiver for the delivery bench, in its own process so it never shares an event loop
 * with the deliverer it measures. Answers 204 to every POST, and per delivery records the time from
 * the event's `created_at` (set when the event was recorded) to its arrival: enqueue → delivered.
 * Both processes read the same system clock. IPC: {type:'ready', url}; on {type:'stats'} it answers
 * {type:'stats', received, latenciesMs}; on {type:'count'}, {type:'count', received}; on {type:'reset'} it forgets what it saw.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
let latenciesMs: number[] = [];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const arrived = Date.now();
    received++;
    const createdAt = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string }).created_at);
    latenciesMs.push(arrived - createdAt);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});

process.on('message', (m: { type: string }) => {
  if (m.type === 'stats') process.send!({ type: 'stats', received, latenciesMs });
  if (m.type === 'count') process.send!({ type: 'count', received });
  if (m.type === 'reset') {
    received = 0;
    latenciesMs = [];
  }
  if (m.type === 'stop') server.close(() => process.exit(0));
});
