/**
 * Tells a page that challenges a person (a captcha, a Cloudflare/Turnstile check, a login wall, an
 * anti-bot block) from data (DESIGN.md §8, issue 31 item 2). Such a page is never passed: the request
 * is SOURCE_UNAVAILABLE with `details.failure` = the kind returned here, uncharged, never "not found".
 * A captcha compiled out of the page's script (PJe's `if (false) { grecaptcha.execute(); … }`) is not
 * shown and is no challenge. The rules follow the real block pages (reference/upstream/real/README.md):
 * TJBA's server-side captcha refusal, TJPB's Cloudflare "Just a moment...", TJMS's e-SAJ form bounced
 * by reCAPTCHA v3, TJGO's Turnstile "comportamento incomum", AWS WAF's HTTP 202 challenge (TJPE), TJPI's
 * PROJUDI image captcha and its PJe address answering with the PDPJ portal's sign-in app (Set 2).
 */
import { asciiAt, NextMatch, replaceTags, TagScan, wholeTag, wordBoundaryAt, type TagMatcher } from '../../platform/text-scan.ts';

export type ChallengeKind = 'captcha' | 'anti_bot' | 'login';

export interface Challenge {
  kind: ChallengeKind;
  /** Why, for the error's message and the logs (never page content). */
  reason: string;
}

interface Rule {
  kind: ChallengeKind;
  reason: string;
  test(page: Page): boolean;
}

/** The page as the rules read it, each view computed once. */
class Page {
  readonly body: string;
  readonly status: number;
  #visible: string | undefined;
  #live: string | undefined;
  constructor(body: string, status: number) {
    this.body = body;
    this.status = status;
  }

  /** The text a person reads: scripts, styles and tags removed (attributes, e.g. `onclick`, go with the tags). */
  get visible(): string {
    // One-pass forms of /<(script|style)\b[\s\S]*?<\/\1\s*>/gi and /<[^>]*>/g (linear time, same result).
    this.#visible ??= replaceTags(replaceTags(this.body, scriptOrStyle, ' '), wholeTag, ' ');
    return this.#visible;
  }

  /** The body without the branches its scripts compiled out (`if (false) { … }`). */
  get live(): string {
    this.#live ??= withoutDeadBranches(this.body);
    return this.#live;
  }

  /** Data the consultations read: a PJe detail or hit, an e-SAJ process page. Invisible captcha scripts on such a page challenge nobody. */
  get hasData(): boolean {
    return /processoEvento:tb"|processosTable:tb"\s*>\s*<tr|id="numeroProcesso"|id="classeProcesso"/.test(this.body);
  }
}

/** `<script …>…</script >` or `<style …>…</style>`: up to the first closing tag after the name. */
const scriptOrStyle: TagMatcher = (scan, i) => {
  const name = ['script', 'style'].find((n) => asciiAt(scan.text, i + 1, n) && wordBoundaryAt(scan.text, i + 1 + n.length));
  if (!name) return -1;
  const close = scan.find(`</${name}\\s*>`, i + 1 + name.length);
  return close === -1 ? -1 : scan.gt(close);
};

/** Removes every `if (false) { … }` block (braces balanced), the way PJe compiles a captcha out of its search button. */
function withoutDeadBranches(text: string): string {
  const dead = /if\s*\(\s*false\s*\)\s*\{/g;
  // Pieces joined once into one flat string: the rules search it many times.
  const out: string[] = [];
  let from = 0;
  for (let m = dead.exec(text); m; m = dead.exec(text)) {
    let depth = 1;
    let i = m.index + m[0].length;
    while (i < text.length && depth > 0) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
      i++;
    }
    out.push(text.slice(from, m.index));
    from = i;
    dead.lastIndex = i;
  }
  if (out.length === 0) return text;
  out.push(text.slice(from));
  return out.join('');
}

/** F5's, Imperva's and DataDome's rejection pages. */
const WAF_REJECTION =
  /The requested URL was rejected\. Please consult with your administrator|Incapsula incident ID|geo\.captcha-delivery\.com|captcha-delivery\.com\/captcha/;
/**
 * "código do captcha", "captcha inválido"… The first form is looked for backwards from each `captcha`
 * (a lookbehind), so a word such as `validavalida…` is not scanned again from each of its letters.
 */
const CAPTCHA_REFUSAL = new RegExp(
  [
    String.raw`captcha(?<=(verifica\w*|c[óo]digo|desafio|resolv\w*|valida\w*)\s+(d[oea]s?\s+)?(re)?captcha)`,
    String.raw`captcha[^.<]{0,40}(n[ãa]o\s+(est[áa]\s+)?corret|inv[áa]lid|incorret|expirad|obrigat)`,
  ].join('|'),
  'i',
);
const LOGIN_ACTION = /j_security_check|login|openid-connect\/auth|autenticacao/i;
const PASSWORD_FIELD = /type="password"/gi;

/**
 * A sign-in form: Keycloak's, or a `<form>` whose `action` goes to a sign-in and a password field
 * after it. One pass (the regular expression this replaces,
 * /<form\b[^>]*action="[^"]*(j_security_check|login|…)[^"]*"[\s\S]*?type="password"/i, scanned the
 * rest of the page from every `<form`): the first such action is found, then a password field after it.
 */
function hasLoginForm(body: string): boolean {
  if (/id="kc-form-login"/i.test(body)) return true;
  const forms = new TagScan(body);
  const quote = new NextMatch(body, '"');
  for (let f = body.indexOf('<'); f !== -1; f = body.indexOf('<', f + 1)) {
    if (!asciiAt(body, f + 1, 'form') || !wordBoundaryAt(body, f + 5)) continue;
    // The tag runs to its `>` (or to the end of the page when it has none).
    const gt = forms.gt(f + 5);
    const tagEnd = gt === -1 ? body.length : gt;
    // Every `action="` of the tag, before its `>`; their values (up to the next `"`) never overlap.
    for (let a = forms.find('action="', f + 5); a !== -1 && a < tagEnd; a = forms.find('action="', a + 8)) {
      const end = quote.from(a + 8);
      if (end === -1) return false;
      if (LOGIN_ACTION.test(body.slice(a + 8, end))) {
        PASSWORD_FIELD.lastIndex = end + 1;
        return PASSWORD_FIELD.test(body);
      }
    }
    // Another `<form` before this `>` has fewer `action="` to offer than this one had: skip to the `>`.
    if (gt === -1) return false;
    f = gt;
  }
  return false;
}

const CF_ORCHESTRATE = '/cdn-cgi/challenge-platform/h/';

/**
 * Cloudflare's interstitial script, `/cdn-cgi/challenge-platform/h/…orchestrate/(chl|managed|jsch)`
 * within one quoted value. One pass: a later path before the same quote sees less of the value.
 */
function hasCloudflareOrchestrate(body: string): boolean {
  const quote = new NextMatch(body, /["']/g);
  for (let p = body.indexOf(CF_ORCHESTRATE); p !== -1; ) {
    const end = quote.from(p + CF_ORCHESTRATE.length);
    if (/orchestrate\/(chl|managed|jsch)/.test(body.slice(p + CF_ORCHESTRATE.length, end === -1 ? undefined : end))) return true;
    if (end === -1) return false;
    p = body.indexOf(CF_ORCHESTRATE, end + 1);
  }
  return false;
}

const WIDGET_CLASS = /\b(g-recaptcha|h-captcha)\b/;
const SITEKEY = 'data-sitekey=';

/**
 * A reCAPTCHA/hCaptcha widget: a `class="…g-recaptcha…"` and a `data-sitekey=` with no `>` between
 * them, in either order. The one-pass form of
 * /class="[^"]*\b(g-recaptcha|h-captcha)\b[^"]*"[^>]*data-sitekey=|data-sitekey=[^>]*class="[^"]*\b(g-recaptcha|h-captcha)\b/,
 * which scanned to the next `>` from every `data-sitekey=`: each `class="` value is read once, and the
 * nearest `data-sitekey=` and `>` on each side are followed by cursors that only move forward.
 */
function hasWidget(text: string): boolean {
  // One cursor per question, each asked from positions that only grow (NextMatch's linear case).
  const quote = new NextMatch(text, '"');
  const sitekeys = new NextMatch(text, SITEKEY);
  const sitekeyAfterClass = new NextMatch(text, SITEKEY);
  const gtAfterSitekey = new NextMatch(text, '>');
  const gtAfterClass = new NextMatch(text, '>');
  let sitekeyEnd = -1; // end of the last `data-sitekey=` that ends before the current `class="`
  let next = sitekeys.from(0);
  for (let c = text.indexOf('class="'); c !== -1; c = text.indexOf('class="', c + 7)) {
    for (; next !== -1 && next + SITEKEY.length <= c; next = sitekeys.from(next + 1)) sitekeyEnd = next + SITEKEY.length;
    const end = quote.from(c + 7);
    if (!WIDGET_CLASS.test(text.slice(c + 7, end === -1 ? undefined : end))) continue;
    // data-sitekey=… class="…g-recaptcha: no `>` from the end of the last data-sitekey= to the class.
    const gt = sitekeyEnd === -1 ? -1 : gtAfterSitekey.from(sitekeyEnd);
    if (sitekeyEnd !== -1 && (gt === -1 || gt >= c)) return true;
    if (end === -1) continue;
    // class="…g-recaptcha…" … data-sitekey=: no `>` from the closing quote to the next data-sitekey=.
    const after = sitekeyAfterClass.from(end + 1);
    const close = gtAfterClass.from(end + 1);
    if (after !== -1 && (close === -1 || close > after)) return true;
  }
  return false;
}

/** In order: the interstitials and refusals first, then the widgets, then the scripts that only a page without data can mean. */
const RULES: Rule[] = [
  {
    kind: 'anti_bot',
    reason: 'AWS WAF challenge (HTTP 202)',
    test: (p) => p.status === 202 && /awsWafCookie|AwsWafIntegration|gokuProps|\/challenge\.js/.test(p.body),
  },
  { kind: 'captcha', reason: 'AWS WAF captcha', test: (p) => /AwsWafCaptcha|\/captcha\.js/.test(p.body) && /gokuProps|awswaf/i.test(p.body) },
  // Cloudflare also injects `/cdn-cgi/challenge-platform/scripts/jsd/…` into pages it lets through: only the interstitial counts.
  {
    kind: 'anti_bot',
    reason: 'Cloudflare challenge ("Just a moment...")',
    test: (p) => /<title>\s*Just a moment\.\.\.\s*<\/title>|window\._cf_chl_opt/.test(p.body) || hasCloudflareOrchestrate(p.body),
  },
  { kind: 'anti_bot', reason: 'Cloudflare block page', test: (p) => /<title>[^<]*Attention Required! \| Cloudflare/i.test(p.body) },
  { kind: 'anti_bot', reason: 'Cloudflare Turnstile', test: (p) => /challenges\.cloudflare\.com\/turnstile\/|class="cf-turnstile"/.test(p.live) },
  { kind: 'anti_bot', reason: 'anti-bot block ("comportamento incomum")', test: (p) => /comportamento\s+incomum/i.test(p.body) },
  {
    kind: 'anti_bot',
    reason: 'WAF rejection page',
    test: (p) => WAF_REJECTION.test(p.body),
  },
  { kind: 'captcha', reason: 'captcha refused by the server', test: (p) => CAPTCHA_REFUSAL.test(p.visible) },
  {
    kind: 'captcha',
    reason: 'captcha widget shown',
    test: (p) => hasWidget(p.live),
  },
  // PROJUDI's search (TJPI): "Digite as letras da imagem", a typed-image captcha. Bounded scans: at most 300 characters from each tag.
  {
    kind: 'captcha',
    reason: 'image captcha in the form',
    test: (p) => /<input\b[^>]{0,300}?\bname=["']?captcha\b/i.test(p.live) || /<img\b[^>]{0,300}?\bsrc=["'][^"'>]{0,300}?\/captcha\b/i.test(p.live),
  },
  { kind: 'login', reason: 'login required (HTTP 401)', test: (p) => p.status === 401 },
  // A court's PJe address answering with the PDPJ portal's single-page app (TJPI): its data sit behind the portal's sign-in.
  {
    kind: 'login',
    reason: 'PDPJ portal (sign-in) instead of the consultation',
    test: (p) =>
      !p.hasData && /<title>\s*Portal de Servi(?:ç|&ccedil;)os do Poder Judici(?:á|&aacute;)rio\s*<\/title>/i.test(p.body) && /<app-root\b/i.test(p.body),
  },
  { kind: 'login', reason: 'login form instead of the page', test: (p) => !p.hasData && hasLoginForm(p.body) },
  { kind: 'captcha', reason: 'reCAPTCHA/hCaptcha gate', test: (p) => !p.hasData && /\b(grecaptcha|hcaptcha)\.execute\s*\(/.test(p.live) },
];

/** The challenge a consultation's answer shows, or null when it shows none. */
export function detectChallenge(body: string, status: number): Challenge | null {
  const page = new Page(body, status);
  for (const rule of RULES) if (rule.test(page)) return { kind: rule.kind, reason: rule.reason };
  return null;
}
