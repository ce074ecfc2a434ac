/**
 * detectChallenge over every real capture (fixtures/, copied from reference/upstream/real/): each block
 * page gives its kind, no data page is flagged (TJMA's listView compiles its reCAPTCHA out with
 * `if (false)`, esaj-1's scripts name `uuidCaptcha`); pageText reads each by its declared charset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { detectChallenge } from './challenge.ts';
import { pageText } from '../http/body.ts';
import { recordConsultaPages } from './http.ts';
import { loopbackConsultaHttp, startLoopback } from './pje/testing.ts';

const DIR = new URL('./fixtures/', import.meta.url);
const bytes = (name: string) => readFileSync(new URL(name, DIR));
const page = (name: string) => pageText(bytes(name));

const BLOCKS: [string, number, 'captcha' | 'anti_bot'][] = [
  ['block-tjba-pje-search-captcha.html', 200, 'captcha'],
  ['block-tjpb-pje-cloudflare-challenge.html', 403, 'anti_bot'],
  ['block-tjpb-pje-cloudflare-challenge.html', 503, 'anti_bot'],
  ['block-tjms-esaj-cpopg5-search-recaptcha-bounce.html', 200, 'captcha'],
  ['block-tjgo-projudi-busca-turnstile.html', 200, 'anti_bot'],
];

test('every real block page is a challenge of its kind, whatever the status it came with', () => {
  for (const [name, status, kind] of BLOCKS) {
    const found = detectChallenge(page(name), status);
    assert.equal(found?.kind, kind, `${name} (${status}): ${JSON.stringify(found)}`);
    assert.ok(found.reason.length > 0);
  }
});

test('no data page is flagged: PJe listView (captcha compiled out), search answers (hit and empty), detail pages, e-SAJ process page', () => {
  const data = readdirSync(DIR).filter((f) => f.endsWith('.html') && !f.startsWith('block-'));
  assert.equal(data.length, 10, data.join(', '));
  for (const name of data) assert.equal(detectChallenge(page(name), 200), null, name);
});

test('the same listView with its captcha branch live is a captcha; a widget shown is a captcha', () => {
  const listView = page('pje-tjma-listView.html');
  assert.match(listView, /if \(false\) \{\s*grecaptcha\.execute\(\);/);
  assert.equal(detectChallenge(listView.replace('if (false) {', 'if (true) {'), 200)?.kind, 'captcha');
  assert.equal(detectChallenge('<html><body><form><div class="g-recaptcha" data-sitekey="6Lc"></div></form></body></html>', 200)?.kind, 'captcha');
  assert.equal(detectChallenge('<div class="h-captcha" data-sitekey="x"></div><script src="https://hcaptcha.com/1/api.js"></script>', 200)?.kind, 'captcha');
});

test('TJGO is matched after decoding as Latin-1: the message reads with its accents', () => {
  const raw = bytes('block-tjgo-projudi-busca-turnstile.html');
  const text = pageText(raw);
  assert.match(text, /O sistema de proteção identificou um comportamento incomum/);
  assert.equal(pageText(raw, 'text/html;charset=ISO-8859-1'), text);
});

test('pageText: UTF-8 pages read as UTF-8; TJCE declares UTF-8 but sends Latin-1 bytes, read as Windows-1252', () => {
  assert.match(page('pje-tjma-post_search_ok.html'), /Crédito Direto ao Consumidor/);
  assert.match(page('pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html'), /Vara Cível da Regional de Santa Cruz/);
  assert.match(page('pje-tjce-detalhe-3000739-94.2025.8.06.0100.html'), /Rescisão do contrato e devolução do dinheiro/);
  assert.equal(pageText(Buffer.from('<p>ação</p>', 'latin1'), 'text/html; charset=latin1'), '<p>ação</p>');
  // Declared Latin-1 in the page only, with bytes that happen to be valid UTF-8 (`Ã©` is C3 A9): read as declared.
  assert.equal(pageText(Buffer.from('<meta charset="ISO-8859-1"><p>Ã©</p>', 'latin1')), '<meta charset="ISO-8859-1"><p>Ã©</p>');
  // A label no decoder knows: UTF-8 with the Windows-1252 fallback, never a failure.
  assert.equal(pageText(Buffer.from('<p>ação</p>', 'latin1'), 'text/html; charset=x-unknown'), '<p>ação</p>');
});

test('production reads every capture to the text the parsers are tested on, with the Content-Type each court sends', async () => {
  const http = loopbackConsultaHttp();
  const served = new Map<string, { body: Buffer; contentType: string }>();
  const court = await startLoopback(({ url }) => {
    const page = served.get(url.slice(1))!;
    return { body: page.body, headers: { 'content-type': page.contentType } };
  });
  // TJCE declares UTF-8 and sends Latin-1 bytes; TJGO names LATIN1 in its page only; the others send UTF-8.
  const pages: [string, string][] = [
    ['pje-tjce-detalhe-3000739-94.2025.8.06.0100.html', 'text/html;charset=UTF-8'],
    ['pje-tjce-search-3000739-94.2025.8.06.0100.html', 'text/html;charset=UTF-8'],
    ['block-tjgo-projudi-busca-turnstile.html', 'text/html'],
    ['block-tjgo-projudi-busca-turnstile.html', 'text/html;charset=ISO-8859-1'],
    ...readdirSync(DIR)
      .filter((f) => f.endsWith('.html'))
      .map((f): [string, string] => [f, 'text/html; charset=UTF-8']),
  ];
  const read: string[] = [];
  const stop = recordConsultaPages((p) => read.push(p.text));
  try {
    for (const [name, contentType] of pages) {
      served.set(name, { body: bytes(name), contentType });
      const session = http.session('tjce', 'TJCE');
      await session.get(`${court.url}/${name}`).catch(() => undefined); // a block page is a failure; its text was recorded
      assert.equal(read.pop(), page(name), `${name} (${contentType})`);
    }
  } finally {
    stop();
    await http.close();
    await court.close();
  }
  assert.match(page('block-tjgo-projudi-busca-turnstile.html'), /proteção identificou/);
});

test('AWS WAF: a 202 with its challenge script is anti_bot; a 202 without it is not a challenge', () => {
  const waf =
    '<!DOCTYPE html><html><head><script>window.awsWafCookieDomainList = [];window.gokuProps = {"key":"x"};</script><script ' +
    'src="https://x.token.awswaf.com/x/challenge.js"></script></head><body></body></html>';
  assert.equal(detectChallenge(waf, 202)?.kind, 'anti_bot');
  assert.equal(detectChallenge('<html><body>aceito</body></html>', 202), null);
});

test('login walls: a 401, a login form (PJe SSO, j_security_check); a password field on a data page is not one', () => {
  assert.equal(detectChallenge('', 401)?.kind, 'login');
  assert.equal(
    detectChallenge(
      '<form id="kc-form-login" ' +
        'action="https://sso.cloud.pje.jus.br/auth/realms/pje/login-actions/authenticate"><input type="password" name="password"></form>',
      200,
    )?.kind,
    'login',
  );
  assert.equal(
    detectChallenge('<form method="post" action="j_security_check"><input name="j_username"><input type="password" name="j_password"></form>', 200)?.kind,
    'login',
  );
  // esaj-1.html has `senhaProcesso` (a password input for a party's case password) next to the data.
  assert.match(page('esaj-1.html'), /type="password"/);
  assert.equal(detectChallenge(page('esaj-1.html'), 200), null);
});

test('Cloudflare pages it lets through (its bot-detection script injected) are data', () => {
  const ok = page('pje-tjma-detalhe_ok.html').replace('</body>', '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></body>');
  assert.equal(detectChallenge(ok, 200), null);
});
