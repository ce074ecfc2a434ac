/**
 * The webhook transport: address classification, URL validation (every SSRF spelling we know of),
 * the connection-time guarded lookup, the two signatures (checked with the official Standard Webhooks
 * library and recomputed independently), the test vectors published in docs/webhooks.md, and the
 * sender against real HTTP receivers on 127.0.0.1.
 */
import { loadConfig } from '../../config.ts';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type dns from 'node:dns';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ApiError } from '../errors.ts';
import { isPublicAddress } from './address.ts';
import { guardedLookup, PRIVATE_ADDRESS_CODE, type LookupAll } from './lookup.ts';
import { WebhookSender, RESPONSE_EXCERPT_BYTES } from './send.ts';
import { newWebhookSecret, signDelivery, type DeliveryToSign } from './sign.ts';
import { checkWebhookUrl, type WebhookUrlRejection } from './url-guard.ts';

// ---------------------------------------------------------------------------------------------
// Addresses

const NON_PUBLIC = [
  '0.0.0.0',
  '0.1.2.3',
  '10.1.2.3',
  '100.64.0.1',
  '100.127.255.255',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.0.1',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::7f00:1',
  '::a00:1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::7f00:1',
  '64:ff9b:1:ab::808:808',
  '100::1',
  '100::ffff:ffff:ffff:ffff',
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:1ff::1',
  '2001:db8::1',
  '2001:db8:ffff::1',
  '2002:7f00:1::1',
  '2002:c0a8:101::1',
  '2002:a9fe:a9fe::',
  'fc00::1',
  'fd00:ec2::254',
  'fdff:ffff::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'feff::1',
  'ff02::1',
  'ff0e::1',
  '3fff::1',
  '3fff:fff::1',
  '4000::1',
  '::2:3:4:5',
  // not addresses at all: refused rather than guessed at
  '',
  'abc',
  '1.2.3',
  '1.2.3.4.5',
  '1.2.3.256',
  '01.2.3.4',
  '1.2.3.4 ',
  '1:2:3:4:5:6:7:8:9',
  ':::1',
  '1::2::3',
  'g::1',
  '12345::1',
  '::ffff:1.2.3',
  '1:2:3:4:5:6:7:1.2.3.4',
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '169.255.0.1',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.88.98.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80e::200e',
  '2001:200::1',
  '2001:0db9::1',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '64:ff9b:1::808:808',
  '2002:808:808::1',
  '2600::',
  '3ffe::1',
  '3fff:1000::1',
  '2001:4860:4860:0:0:0:0:8888',
];

test('isPublicAddress refuses private, reserved, special and malformed addresses', () => {
  for (const ip of NON_PUBLIC) assert.equal(isPublicAddress(ip), false, `${ip} must not be public`);
});

test('isPublicAddress accepts globally routable addresses, including IPv4 embedded in IPv6', () => {
  for (const ip of PUBLIC) assert.equal(isPublicAddress(ip), true, `${ip} must be public`);
});

test('isPublicAddress agrees with net.BlockList on random IPv4 addresses, bare and IPv4-mapped', () => {
  const blocked = new net.BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    blocked.addSubnet(network, prefix, 'ipv4');
  }
  // Random addresses, biased so that a good share fall in the special ranges' neighbourhoods.
  const firstOctets = [0, 9, 10, 11, 100, 126, 127, 128, 169, 172, 191, 192, 198, 203, 223, 224, 239, 240, 255];
  for (let i = 0; i < 20_000; i++) {
    const a = i % 2 === 0 ? firstOctets[i % firstOctets.length] : Math.floor(Math.random() * 256);
    const ip = [a, ...Array.from({ length: 3 }, () => Math.floor(Math.random() * 256))].join('.');
    const expected = !blocked.check(ip, 'ipv4');
    assert.equal(isPublicAddress(ip), expected, ip);
    assert.equal(isPublicAddress(`::ffff:${ip}`), expected, `::ffff:${ip}`);
  }
});

// ---------------------------------------------------------------------------------------------
// URL guard

const publicResolver = async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:c1b1'];
const resolverThatMustNotRun = async (host: string): Promise<string[]> => {
  throw new Error(`resolver called for ${host}`);
};

async function rejection(raw: unknown, opts: Parameters<typeof checkWebhookUrl>[1]): Promise<ApiError> {
  try {
    await checkWebhookUrl(raw, opts);
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected an ApiError for ${String(raw)}, got ${String(err)}`);
    return err;
  }
  assert.fail(`${String(raw)} was accepted`);
}

async function assertRejected(
  raw: unknown,
  reason: WebhookUrlRejection,
  opts: Parameters<typeof checkWebhookUrl>[1] = { allowPrivate: false, resolve: publicResolver },
) {
  const err = await rejection(raw, opts);
  assert.equal(err.code, 'INVALID_WEBHOOK_URL');
  assert.equal(err.status, 400);
  assert.deepEqual(err.details, { field: opts.field ?? 'webhook_url', reason }, `reason for ${String(raw)}: ${err.message}`);
}

test('checkWebhookUrl refuses what is not a usable https URL', async () => {
  await assertRejected(42, 'not_a_string');
  await assertRejected(null, 'not_a_string');
  await assertRejected({ href: 'https://example.com/' }, 'not_a_string');
  await assertRejected(`https://hooks.example.com/${'x'.repeat(2048)}`, 'too_long');
  await assertRejected('not a url', 'unparseable');
  await assertRejected('/relative/path', 'unparseable');
  await assertRejected('https://', 'unparseable');
  await assertRejected('https://exa mple.com/', 'unparseable');
  await assertRejected('http://hooks.example.com/', 'scheme');
  await assertRejected('ftp://hooks.example.com/', 'scheme');
  await assertRejected('file:///etc/passwd', 'scheme');
  await assertRejected('javascript:alert(1)', 'scheme');
  await assertRejected('gopher://hooks.example.com:25/', 'scheme');
  await assertRejected('https://user:pass@hooks.example.com/', 'credentials');
  await assertRejected('https://user@hooks.example.com/', 'credentials');
  await assertRejected('https://:pass@hooks.example.com/', 'credentials');
  await assertRejected('https://hooks.example.com/#frag', 'fragment');
  await assertRejected('https://hooks.example.com/#', 'fragment');
});

test('checkWebhookUrl refuses local and internal names', async () => {
  for (const host of [
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    'printer.local',
    'metadata.google.internal',
    'db.internal',
    'intranet',
    'metadata',
  ]) {
    await assertRejected(`https://${host}/hook`, 'reserved_name', { allowPrivate: false, resolve: resolverThatMustNotRun });
  }
});

test('checkWebhookUrl refuses non-public IP literals in every spelling, without resolving', async () => {
  const spellings = [
    '127.0.0.1',
    '127.1',
    '2130706433',
    '0x7f.1',
    '0177.0.0.1',
    '0x7f000001',
    '127.0.0.1.',
    '[::ffff:127.0.0.1]',
    '[::1]',
    '[0:0:0:0:0:ffff:7f00:1]',
    '[::]',
    '[::ffff:169.254.169.254]',
    '169.254.169.254',
    '[fd00:ec2::254]',
    '0.0.0.0',
    '0',
    '10.1.2.3',
    '192.168.0.1',
    '100.64.0.1',
    '172.16.5.4',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    '[fe80::1]',
  ];
  for (const host of spellings) {
    await assertRejected(`https://${host}:8443/hook`, 'private_address', { allowPrivate: false, resolve: resolverThatMustNotRun });
  }
});

test('checkWebhookUrl refuses names that resolve to a non-public address, or to nothing', async () => {
  const resolvingTo = (addresses: string[]) => async () => addresses;
  await assertRejected('https://evil.example.com/', 'private_address', { allowPrivate: false, resolve: resolvingTo(['127.0.0.1']) });
  await assertRejected('https://evil.example.com/', 'private_address', { allowPrivate: false, resolve: resolvingTo(['8.8.8.8', '10.0.0.1']) });
  await assertRejected('https://evil.example.com/', 'private_address', { allowPrivate: false, resolve: resolvingTo(['2606:4700::1', '::1']) });
  await assertRejected('https://evil.example.com/', 'unresolvable', { allowPrivate: false, resolve: resolvingTo([]) });
  await assertRejected('https://evil.example.com/', 'unresolvable', {
    allowPrivate: false,
    resolve: async () => {
      throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
    },
  });
  // The default resolver: .invalid never resolves (RFC 6761).
  await assertRejected('https://no-such-host.invalid/', 'unresolvable', { allowPrivate: false });
});

test('checkWebhookUrl names the field it was given', async () => {
  await assertRejected('http://hooks.example.com/', 'scheme', { allowPrivate: false, field: 'url', resolve: publicResolver });
});

test('checkWebhookUrl accepts a public https URL and returns it parsed', async () => {
  const resolved: string[] = [];
  const url = await checkWebhookUrl('https://Hooks.Example.com:8443/tramita/events?account=7', {
    allowPrivate: false,
    resolve: async (host) => {
      resolved.push(host);
      return publicResolver();
    },
  });
  assert.ok(url instanceof URL);
  assert.equal(url.href, 'https://hooks.example.com:8443/tramita/events?account=7');
  assert.deepEqual(resolved, ['hooks.example.com']);
  const literal = await checkWebhookUrl('https://8.8.8.8/x', { allowPrivate: false, resolve: resolverThatMustNotRun });
  assert.equal(literal.hostname, '8.8.8.8');
  await checkWebhookUrl('https://[2606:4700:4700::1111]/x', { allowPrivate: false, resolve: resolverThatMustNotRun });
});

test('allowPrivate accepts http and private targets but keeps the shape rules', async () => {
  const opts = { allowPrivate: true, resolve: resolverThatMustNotRun };
  assert.equal((await checkWebhookUrl('http://127.0.0.1:1234/x', opts)).href, 'http://127.0.0.1:1234/x');
  assert.equal((await checkWebhookUrl('http://localhost:3000/hook', opts)).port, '3000');
  assert.equal((await checkWebhookUrl('https://[::1]:8443/', opts)).hostname, '[::1]');
  await assertRejected('ftp://127.0.0.1/', 'scheme', opts);
  await assertRejected('http://u:p@127.0.0.1/', 'credentials', opts);
  await assertRejected('http://127.0.0.1/#x', 'fragment', opts);
  await assertRejected(`http://127.0.0.1/${'x'.repeat(2048)}`, 'too_long', opts);
});

// ---------------------------------------------------------------------------------------------
// Guarded lookup

type LookupOutcome = { err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number };

function runLookup(lookup: ReturnType<typeof guardedLookup>, host: string, options: dns.LookupOptions): Promise<LookupOutcome> {
  return new Promise((resolve) => lookup(host, options, (err, address, family) => resolve({ err, address, family })));
}

const fakeDns =
  (table: Record<string, string[]>): LookupAll =>
  (hostname, _options, callback) => {
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      addresses.map((address) => ({ address, family: net.isIP(address) })),
    );
  };

test('guardedLookup refuses a name resolving to loopback, in both callback forms', async () => {
  const lookup = guardedLookup(false);
  for (const options of [{}, { all: true }, { family: 4 }] as dns.LookupOptions[]) {
    const { err } = await runLookup(lookup, 'localhost', options);
    assert.equal(err?.code, PRIVATE_ADDRESS_CODE, `options ${JSON.stringify(options)}`);
    assert.match(err.message, /localhost resolves to non-public address/);
  }
});

test('guardedLookup refuses when any one address is not public, and passes public answers through', async () => {
  const lookup = guardedLookup(
    false,
    fakeDns({
      'rebind.example': ['93.184.215.14', '169.254.169.254'],
      'hooks.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:c1b1'],
    }),
  );
  assert.equal((await runLookup(lookup, 'rebind.example', {})).err?.code, PRIVATE_ADDRESS_CODE);
  assert.equal((await runLookup(lookup, 'rebind.example', { all: true })).err?.code, PRIVATE_ADDRESS_CODE);

  const single = await runLookup(lookup, 'hooks.example', {});
  assert.deepEqual(single, { err: null, address: '93.184.215.14', family: 4 });
  const all = await runLookup(lookup, 'hooks.example', { all: true });
  assert.equal(all.err, null);
  assert.deepEqual(all.address, [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:c1b1', family: 6 },
  ]);

  assert.equal((await runLookup(lookup, 'missing.example', {})).err?.code, 'ENOTFOUND');
});

test('guardedLookup with allowPrivate lets loopback through', async () => {
  const { err, address } = await runLookup(guardedLookup(true), 'localhost', {});
  assert.equal(err, null);
  assert.ok(address === '127.0.0.1' || address === '::1');
});

test('guardedLookup works as the lookup of a real connection', async (t) => {
  const server = await listen(t, (_req, res) => res.end('should not be reached'));
  const { port } = server.address() as net.AddressInfo;
  let connections = 0;
  server.on('connection', () => connections++);
  const refused = await new Promise<NodeJS.ErrnoException>((resolve) => {
    http.get({ host: 'localhost', port, lookup: guardedLookup(false), agent: false }, () => resolve(new Error('connected'))).on('error', resolve);
  });
  assert.equal(refused.code, PRIVATE_ADDRESS_CODE);
  const socketError = await new Promise<NodeJS.ErrnoException>((resolve) => {
    net.connect({ host: 'localhost', port, lookup: guardedLookup(false) }).on('error', resolve);
  });
  assert.equal(socketError.code, PRIVATE_ADDRESS_CODE);
  assert.equal(connections, 0);
});

// ---------------------------------------------------------------------------------------------
// Signatures

/** The real clock's now: the official Standard Webhooks verifier checks the timestamp against it (a tolerance, not data). */
const NOW_SECONDS = Math.floor(Date.now() / 1000);
const SAMPLE_BODY = JSON.stringify({ id: 'evt_1', event: 'novo_processo', data: { nome: 'João da Silva — ação' } });

function sampleDelivery(overrides: Partial<DeliveryToSign> = {}): DeliveryToSign {
  return {
    body: SAMPLE_BODY,
    secret: newWebhookSecret(),
    token: 'tok_secret',
    event: 'novo_processo',
    deliveryId: 'dlv_1',
    messageId: 'msg_1',
    timestampSeconds: NOW_SECONDS,
    ...overrides,
  };
}

test('newWebhookSecret: whsec_ + base64 of 24 random bytes', () => {
  const a = newWebhookSecret();
  const b = newWebhookSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.equal(Buffer.from(a.slice(6), 'base64').length, 24);
  assert.notEqual(a, b);
});

test('signDelivery gives exactly the documented headers', () => {
  const input = sampleDelivery();
  const headers = signDelivery(input);
  assert.deepEqual(Object.keys(headers).sort(), [
    'authorization',
    'content-type',
    'user-agent',
    'webhook-id',
    'webhook-signature',
    'webhook-timestamp',
    'x-service-delivery-id',
    'x-service-event',
    'x-service-signature',
    'x-service-timestamp',
  ]);
  assert.equal(headers['content-type'], 'application/json');
  assert.equal(headers['user-agent'], 'Service-Webhook/1.0');
  assert.equal(headers['x-service-event'], 'novo_processo');
  assert.equal(headers['x-service-delivery-id'], 'dlv_1');
  assert.equal(headers['x-service-timestamp'], String(NOW_SECONDS));
  assert.equal(headers.authorization, 'Bearer tok_secret');
  assert.equal(headers['webhook-id'], 'msg_1');
  assert.equal(headers['webhook-timestamp'], String(NOW_SECONDS));
});

test('X-Service-Signature is the hex HMAC of the body bytes keyed with the whole secret string', () => {
  const input = sampleDelivery();
  const expected = createHmac('sha256', Buffer.from(input.secret!, 'utf8')).update(Buffer.from(input.body, 'utf8')).digest('hex');
  assert.equal(signDelivery(input)['x-service-signature'], `sha256=${expected}`);
  assert.match(expected, /^[0-9a-f]{64}$/);
});

test('webhook-* headers verify with the official Standard Webhooks library', () => {
  const input = sampleDelivery();
  const headers = signDelivery(input);
  const payload = new Webhook(input.secret!).verify(input.body, headers);
  assert.deepEqual(payload, JSON.parse(input.body));
  assert.throws(() => new Webhook(input.secret!).verify(input.body.replace('João', 'Joao'), headers), /No matching signature/);
  assert.throws(() => new Webhook(newWebhookSecret()).verify(input.body, headers), /No matching signature/);
});

test('webhook-signature matches the Standard Webhooks specification example', () => {
  const headers = signDelivery({
    body: '{"test": 2432232314}',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    token: null,
    event: 'x',
    deliveryId: 'd',
    messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestampSeconds: 1614265330,
  });
  assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

test('no authorization or signature headers without a token or a secret', () => {
  const headers = signDelivery(sampleDelivery({ secret: null, token: null }));
  assert.deepEqual(Object.keys(headers).sort(), [
    'content-type',
    'user-agent',
    'webhook-id',
    'webhook-timestamp',
    'x-service-delivery-id',
    'x-service-event',
    'x-service-timestamp',
  ]);
  const tokenOnly = signDelivery(sampleDelivery({ secret: null }));
  assert.equal(tokenOnly.authorization, 'Bearer tok_secret');
  assert.equal(tokenOnly['x-service-signature'], undefined);
  const secretOnly = signDelivery(sampleDelivery({ token: null }));
  assert.equal(secretOnly.authorization, undefined);
  assert.ok(secretOnly['x-service-signature'] && secretOnly['webhook-signature']);
});

test('docs/webhooks.md test vectors are what signDelivery produces', () => {
  const doc = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Test vectors'));
  assert.ok(section, 'docs/webhooks.md has a "## Test vectors" section');
  const json = /```json\n([\s\S]*?)\n```/.exec(section);
  assert.ok(json, 'the section has a ```json block of inputs');
  const input = JSON.parse(json[1]) as DeliveryToSign;
  const table: Record<string, string> = {};
  for (const row of section.matchAll(/^\| `([a-z-]+)` \| `([^`]*)` \|$/gm)) table[row[1]] = row[2];
  assert.equal(Object.keys(table).length, 10, 'the table lists ten headers');

  assert.deepEqual(signDelivery(input), table);
  const unsigned = Object.fromEntries(Object.entries(table).filter(([name]) => !['authorization', 'x-service-signature', 'webhook-signature'].includes(name)));
  assert.deepEqual(signDelivery({ ...input, secret: null, token: null }), unsigned);
});

// ---------------------------------------------------------------------------------------------
// Sender

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function listen(t: TestContext, handler: Handler): Promise<http.Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return server;
}

function urlOf(server: http.Server, path = '/hook'): string {
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}${path}`;
}

function newSender(t: TestContext, opts: Partial<ConstructorParameters<typeof WebhookSender>[0]> = {}): WebhookSender {
  const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2_000, ...opts });
  t.after(() => sender.close());
  return sender;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

test('a 2xx delivery: ok, exact headers and body received byte for byte', async (t) => {
  const received: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const server = await listen(t, async (req, res) => {
    received.push({ method: req.method, url: req.url, headers: req.headers, body: await readBody(req) });
    res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted');
  });
  const sender = newSender(t);
  const input = sampleDelivery();
  const headers = signDelivery(input);

  const result = await sender.send({ url: urlOf(server, '/hook?account=1'), headers, body: input.body });
  assert.equal(result.ok, true);
  assert.equal(result.statusCode, 202);
  assert.equal(result.responseExcerpt, 'accepted');
  assert.equal(result.error, null);
  assert.ok(result.latencyMs >= 0 && result.latencyMs < 2_000);

  assert.equal(received.length, 1);
  const [request] = received;
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/hook?account=1');
  assert.ok(request.body.equals(Buffer.from(input.body, 'utf8')), 'body received byte for byte');
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(input.body)));
  for (const [name, value] of Object.entries(headers)) assert.equal(request.headers[name], value, name);
  assert.deepEqual(Object.keys(request.headers).sort(), [...Object.keys(headers), 'connection', 'content-length', 'host'].sort());
  // The receiver can verify what it got.
  new Webhook(input.secret!).verify(request.body.toString('utf8'), request.headers as Record<string, string>);
});

test('a 500 is a failure with its status and an excerpt of the answer', async (t) => {
  const server = await listen(t, (req, res) => req.resume().on('end', () => res.writeHead(500).end('boom: database down')));
  const result = await newSender(t).send({ url: urlOf(server), headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.deepEqual({ ...result, latencyMs: 0 }, { ok: false, statusCode: 500, latencyMs: 0, responseExcerpt: 'boom: database down', error: null });
});

test('a redirect is not followed', async (t) => {
  let targetHits = 0;
  const target = await listen(t, (_req, res) => {
    targetHits++;
    res.end('ok');
  });
  const redirector = await listen(t, (req, res) => req.resume().on('end', () => res.writeHead(302, { location: urlOf(target) }).end()));
  const result = await newSender(t).send({ url: urlOf(redirector), headers: {}, body: '{}' });
  assert.equal(result.ok, false);
  assert.equal(result.statusCode, 302);
  assert.equal(result.error, null);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(targetHits, 0);
});

test('a receiver that never answers times out within timeoutMs', async (t) => {
  let hungUp!: () => void;
  const abandoned = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  const server = await listen(t, (req) => {
    req.socket.on('close', () => hungUp()); /* never answers */
  });
  const sender = newSender(t, { timeoutMs: 300 });
  const result = await sender.send({ url: urlOf(server), headers: {}, body: '{}' });
  assert.equal(result.ok, false);
  assert.equal(result.statusCode, null);
  assert.equal(result.responseExcerpt, null);
  assert.equal(result.error, 'timeout after 300ms');
  await abandoned; // the sender hung up on the receiver instead of waiting for it
});

test('a huge answer is cut to a 1 KiB excerpt, and the pool keeps working', async (t) => {
  const chunk = 'ação '.repeat(10_000); // multi-byte characters, so the cut can fall inside one
  const server = await listen(t, (req, res) =>
    req.resume().on('end', () => {
      if (req.url === '/small') return res.end('small');
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      const writeMore = (left: number): void => {
        if (left === 0) return void res.end();
        if (res.write(chunk)) writeMore(left - 1);
        else res.once('drain', () => writeMore(left - 1));
      };
      writeMore(200); // ~12 MB, never read in full
    }),
  );
  const sender = newSender(t, { maxSockets: 1 });
  const result = await sender.send({ url: urlOf(server, '/huge'), headers: {}, body: '{}' });
  assert.equal(result.ok, true);
  assert.ok(result.responseExcerpt !== null);
  assert.ok(Buffer.byteLength(result.responseExcerpt) <= RESPONSE_EXCERPT_BYTES);
  assert.ok(result.responseExcerpt.length > 1000 / 2);
  assert.ok(chunk.startsWith(result.responseExcerpt), 'no replacement characters, no partial character');
  // With a single socket allowed, the next delivery proves the huge one released it.
  const next = await sender.send({ url: urlOf(server, '/small'), headers: {}, body: '{}' });
  assert.equal(next.responseExcerpt, 'small');
});

test('connection refused is an error, not an exception', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const url = urlOf(closed);
  await new Promise((resolve) => closed.close(resolve));
  const result = await newSender(t).send({ url, headers: {}, body: '{}' });
  assert.equal(result.ok, false);
  assert.equal(result.statusCode, null);
  assert.match(result.error ?? '', /ECONNREFUSED/);
});

test('a non-public IP literal is refused without connecting', async (t) => {
  let connections = 0;
  const server = await listen(t, (_req, res) => res.end('should not be reached'));
  server.on('connection', () => connections++);
  const { port } = server.address() as net.AddressInfo;
  const sender = newSender(t, { allowPrivate: false });
  for (const url of [
    `https://127.0.0.1:${port}/hook`,
    `https://[::1]:${port}/`,
    `https://[::ffff:127.0.0.1]:${port}/`,
    'https://169.254.169.254/latest/meta-data/',
  ]) {
    const result = await sender.send({ url, headers: {}, body: '{}' });
    assert.equal(result.ok, false);
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? '', /EPRIVATEADDRESS: refused to connect to non-public address/, url);
  }
  const plainHttp = await sender.send({ url: 'http://hooks.example.com/', headers: {}, body: '{}' });
  assert.match(plainHttp.error ?? '', /https required/);
  assert.equal(connections, 0);
});

test("names are checked at connection time (DNS rebinding), through the agents' lookup", async (t) => {
  let connections = 0;
  const server = await listen(t, async (req, res) => {
    await readBody(req);
    res.end('hello');
  });
  server.on('connection', () => connections++);
  const { port } = server.address() as net.AddressInfo;
  const lookupAll = fakeDns({ 'receiver.test': ['127.0.0.1'] });

  const guarded = newSender(t, { allowPrivate: false, lookupAll });
  const refused = await guarded.send({ url: `https://receiver.test:${port}/`, headers: {}, body: '{}' });
  assert.match(refused.error ?? '', /EPRIVATEADDRESS: refused to connect: receiver\.test resolves to non-public address 127\.0\.0\.1/);
  const missing = await guarded.send({ url: `https://missing.test:${port}/`, headers: {}, body: '{}' });
  assert.match(missing.error ?? '', /ENOTFOUND/);
  assert.equal(connections, 0);

  const open = newSender(t, { allowPrivate: true, lookupAll });
  const delivered = await open.send({ url: `http://receiver.test:${port}/`, headers: {}, body: '{}' });
  assert.equal(delivered.responseExcerpt, 'hello');
});

test('keep-alive: many deliveries share a few connections', async (t) => {
  let connections = 0;
  let requests = 0;
  const server = await listen(t, (req, res) =>
    req.resume().on('end', () => {
      requests++;
      res.writeHead(204).end();
    }),
  );
  server.on('connection', () => connections++);
  const sender = newSender(t, { maxSockets: 16 });
  const url = urlOf(server);
  const headers = signDelivery(sampleDelivery());

  const total = 2_000;
  let next = 0;
  let okCount = 0;
  const worker = async () => {
    while (next++ < total) if ((await sender.send({ url, headers, body: SAMPLE_BODY })).ok) okCount++;
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  assert.equal(okCount, total);
  assert.equal(requests, total);
  assert.ok(connections <= 16, `${connections} connections`);
});

test('a pooled connection the receiver dropped is retried once on a fresh one', async (t) => {
  const requestsPerSocket = new Map<net.Socket, number>();
  let connections = 0;
  const server = await listen(t, (req, res) => {
    const seen = (requestsPerSocket.get(req.socket) ?? 0) + 1;
    requestsPerSocket.set(req.socket, seen);
    if (seen > 1) return void req.socket.destroy(); // as if it had closed the idle connection
    req.resume().on('end', () => res.end('fresh'));
  });
  server.on('connection', () => connections++);
  const sender = newSender(t, { maxSockets: 1 });
  assert.equal((await sender.send({ url: urlOf(server), headers: {}, body: '{}' })).responseExcerpt, 'fresh');
  const second = await sender.send({ url: urlOf(server), headers: {}, body: '{}' });
  assert.equal(second.ok, true);
  assert.equal(second.responseExcerpt, 'fresh');
  assert.equal(connections, 2);
});

test('invalid header values and closed senders give errors, never exceptions', async (t) => {
  const server = await listen(t, (_req, res) => res.end());
  const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 1_000 });
  const bad = await sender.send({ url: urlOf(server), headers: { 'x-bad': 'line\nbreak' }, body: '{}' });
  assert.equal(bad.ok, false);
  assert.match(bad.error ?? '', /ERR_INVALID_CHAR/);
  assert.match((await sender.send({ url: 'not a url', headers: {}, body: '' })).error ?? '', /invalid URL/);
  sender.close();
  assert.equal((await sender.send({ url: urlOf(server), headers: {}, body: '{}' })).error, 'sender is closed');
});

test('TRAMITA_WEBHOOK_PRODUCT names the header prefix and the User-Agent; the HMAC and the Standard Webhooks headers stay', () => {
  const input = sampleDelivery();
  const branded = signDelivery({ ...input, product: 'BuscaProcessos' });
  const plain = signDelivery(input);
  assert.equal(branded['x-buscaprocessos-signature'], plain['x-service-signature']);
  assert.equal(branded['x-buscaprocessos-event'], input.event);
  assert.equal(branded['x-buscaprocessos-delivery-id'], input.deliveryId);
  assert.equal(branded['user-agent'], 'BuscaProcessos-Webhook/1.0');
  assert.equal(branded['webhook-signature'], plain['webhook-signature']);
  assert.equal(branded['x-service-signature'], undefined);
  assert.equal(loadConfig({}).webhookProduct, 'Service');
  assert.throws(() => loadConfig({ TRAMITA_WEBHOOK_PRODUCT: 'Busca Processos' }), /TRAMITA_WEBHOOK_PRODUCT/);
});
