/**
 * The console in a real browser (Debian's Chromium driven by playwright-core, never a downloaded one):
 * invitation → password → sign-in → a key created and used with curl → the webhook pointed at a
 * loopback receiver → a test delivery in the history → a failing one → resend → the key revoked and
 * refused by the API. Every form field has a label. With TRAMITA_CONSOLE_SCREENSHOTS=docs/console it
 * also writes the screenshots the README shows.
 *
 * Without /usr/bin/chromium (`apt-get install chromium`) the test is skipped, unless
 * TRAMITA_REQUIRE_BROWSER=1 (set by .ci/run), where that is a failure.
 */
// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators, not DOM nodes: innerText() is the rendered text a user reads
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { inviteUser } from '../src/capabilities/console/invite.ts';
import { PROJECT_ROOT } from '../src/config.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import { createHarness } from './harness.ts';

const CHROMIUM = '/usr/bin/chromium';
// The flags DESIGN.md lists: no background connections (this machine's network is closed).
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const SCREENSHOTS = process.env.TRAMITA_CONSOLE_SCREENSHOTS ? path.resolve(PROJECT_ROOT, process.env.TRAMITA_CONSOLE_SCREENSHOTS) : null;
const PASSWORD = 'uma-senha-boa-para-o-teste';

/** A receiver that answers `status` (changeable) and keeps every body. */
async function receiver() {
  const state = { status: 200, bodies: [] as string[] };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      state.bodies.push(body);
      res.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status === 200 ? 'ok' : 'receptor fora do ar');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Every visible form control is named for assistive technology (a label, aria-label or title). */
async function assertLabelled(page: Page): Promise<void> {
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input:not([type=hidden]):not([hidden]), select, textarea')]
      .filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('title'))
      .map((el) => el.outerHTML),
  );
  assert.deepEqual(unlabelled, [], `unlabelled controls on ${page.url()}`);
}

test('in a browser: invitation, sign-in, a key used with curl, webhook test, failure, resend, revocation', { timeout: 180_000 }, async (t) => {
  if (!fs.existsSync(CHROMIUM)) {
    if (process.env.TRAMITA_REQUIRE_BROWSER === '1') assert.fail(`${CHROMIUM} is missing: apt-get install chromium`);
    t.skip(`${CHROMIUM} is not installed (apt-get install chromium)`);
    return;
  }
  const h = await createHarness({ env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  t.after(() => h.close());
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const rx = await receiver();
  t.after(() => rx.close());
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  page.on('dialog', (d) => void d.accept());

  // Some history for the pages to show: an account with credits, a lookup, a case monitor.
  const acc = await h.createAccount({ credits: 5_000, name: 'Escritório Exemplo' });
  const now = h.sources.sandbox!.dataset.now();
  const sample = h.sources.sandbox!.dataset.cases.find((c) => c.filedAt <= now && c.court.datajudAlias)!;
  await h.inject({ method: 'GET', url: `/v1/processos/cnj/${formatCnj(sample.numero)}`, headers: acc.headers });
  await h.inject({
    method: 'POST',
    url: '/v1/monitoramentos/processos',
    headers: { ...acc.headers, 'content-type': 'application/json' },
    payload: { numeroCnj: formatCnj(sample.numero) },
  });

  // 1. The operator's invitation; the person sets a password and signs in.
  const { link } = await inviteUser(h.services, acc.accountId, 'ana@exemplo.com.br', base);
  await page.goto(link);
  await assertLabelled(page);
  await shot(page, '01-convite');
  await page.getByLabel('Nova senha').fill(PASSWORD);
  await page.getByLabel('Repita a senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Definir senha' }).click();
  await page.waitForURL(/\/console\/entrar/);
  assert.match(await page.locator('.aviso.ok').innerText(), /Senha definida/);
  await assertLabelled(page);
  await shot(page, '02-entrar');
  await page.getByLabel('E-mail').fill('ana@exemplo.com.br');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/console\/visao-geral/);
  assert.match(await page.locator('.numeros').innerText(), /R\$ \d+,\d{2}/);
  assert.ok((await page.locator('svg[role=img]').count()) === 1, 'the consumption chart');
  await shot(page, '03-visao-geral');

  // 2. A key, shown once, used with curl.
  await page.getByRole('link', { name: 'Chaves de API' }).click();
  await page.getByLabel('Nome (onde ela será usada)').fill('servidor de produção');
  await page.getByRole('button', { name: 'Criar chave' }).click();
  const key = await page.locator('#valor-uma-vez').inputValue();
  assert.match(key, /^trm_/);
  await assertLabelled(page);
  await shot(page, '04-chaves');
  const curl = (k: string) =>
    promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `x-api-key: ${k}`, `${base}/v1/conta/saldo`]).then((r) => r.stdout);
  assert.equal(await curl(key), '200');

  // 3. The webhook at a loopback receiver; a test delivery shows in the history.
  await page.getByRole('link', { name: 'Webhook', exact: true }).click();
  await page.getByLabel('URL (HTTPS, endereço público)').fill(rx.url);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await page.waitForURL(/aviso=webhook-salvo/);
  await assertLabelled(page);
  await shot(page, '05-webhook');
  await page.getByRole('button', { name: 'Enviar um teste' }).click();
  await page.waitForURL(/\/console\/entregas\?aviso=teste-entregue/);
  assert.equal(rx.state.bodies.length, 1);
  assert.equal(JSON.parse(rx.state.bodies[0]!).event, 'teste');
  assert.match(await page.locator('tbody tr').first().innerText(), /teste[\s\S]*ENTREGUE/);

  // 4. A failing receiver: the attempt's status and excerpt are in the history; then resend.
  rx.state.status = 500;
  await page.getByRole('link', { name: 'Webhook', exact: true }).click();
  await page.getByRole('button', { name: 'Enviar um teste' }).click();
  await page.waitForURL(/aviso=teste-falhou/);
  const failed = page.locator('tbody tr').first();
  assert.match(await failed.innerText(), /FALHOU/);
  await failed.locator('summary').click();
  assert.match(await failed.innerText(), /HTTP 500[\s\S]*receptor fora do ar/);
  await assertLabelled(page);
  await shot(page, '06-entregas');
  rx.state.status = 200;
  await failed.getByRole('button', { name: /Reenviar/ }).click();
  await page.waitForURL(/aviso=reenvio-criado/);
  await h.runJobs();
  // (The monitor's own events, due meanwhile, reach the receiver too: counted apart.)
  assert.equal(rx.state.bodies.filter((b) => JSON.parse(b).event === 'teste').length, 3, 'the resend reached the receiver');
  // The history filtered to the test event: the resend, newest, delivered; the failure below it.
  await page.getByLabel('Evento').selectOption('teste');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/evento=teste/);
  const rows = await page.locator('tbody tr').allInnerTexts();
  assert.equal(rows.length, 3);
  assert.match(rows[0]!, /teste\tENTREGUE/);
  assert.match(rows[1]!, /teste\tFALHOU/);

  // 5. The other pages render for the person.
  for (const [name, slug] of [
    ['07-monitoramentos', 'monitoramentos'],
    ['08-extrato', 'extrato'],
    ['09-auditoria', 'auditoria'],
  ] as const) {
    await page.getByRole('link', { name: { monitoramentos: 'Monitoramentos', extrato: 'Extrato', auditoria: 'Auditoria' }[slug] }).click();
    await page.waitForURL(new RegExp(`/console/${slug}`));
    await assertLabelled(page);
    await shot(page, name);
  }
  assert.match(await page.locator('tbody').innerText(), /chave\.criar[\s\S]*ana@exemplo\.com\.br|ana@exemplo\.com\.br[\s\S]*chave\.criar/);

  // 6. The key revoked in the console is refused by the API.
  await page.getByRole('link', { name: 'Chaves de API' }).click();
  await page.getByRole('button', { name: 'Revogar a chave servidor de produção' }).click();
  await page.waitForURL(/aviso=chave-revogada/);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await curl(key), '401');

  // On a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('link', { name: 'Visão geral' }).click();
  await shot(page, '10-celular');
});
