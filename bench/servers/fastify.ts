/** Breakdown reference (BENCH_BREAKDOWN=1): a bare Fastify 5 hello-world, no plugins, no hooks, no logger. */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { handleDriver, send } from './ipc.ts';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));

handleDriver({ close: () => app.close() });

await app.listen({ host: '127.0.0.1', port: 0 });
send({ type: 'ready', port: (app.server.address() as AddressInfo).port, engine: null, details: {} });
