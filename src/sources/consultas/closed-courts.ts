/**
 * The courts whose public consultation Tramita does not read, and why (reference/upstream/real/README.md
 * §5, recon of 2026-05 to 2026-08): a captcha shown to people (even one only the front end checks), an
 * anti-bot check (Cloudflare, Turnstile, an F5 or AWS WAF block, a fingerprint header computed by the
 * site's script) or a login (DESIGN.md §8). Their cases take parties from DJEN or a provider. A court in
 * neither this table nor courts.ts was not surveyed: its consultation is `desconhecida`.
 */
export type ClosedReason = 'captcha' | 'anti_bot' | 'login' | 'desconhecida';

export interface ClosedCourt {
  sigla: string;
  /** The consultation's system as the recon names it; null when it did not say. */
  sistema: string | null;
  motivo: ClosedReason;
  nota: string;
}

const eproc = (sigla: string, motivo: ClosedReason, nota: string): ClosedCourt => ({ sigla, sistema: 'eproc', motivo, nota });
const trt = (n: number): ClosedCourt => ({
  sigla: `TRT${n}`,
  sistema: 'PJe consultaprocessual',
  motivo: 'captcha',
  nota: 'basic data open; parties, value and movements behind an image captcha',
});

export const CLOSED_COURTS: readonly ClosedCourt[] = Object.freeze([
  eproc('TRF2', 'captcha', 'captcha (#divInfraCaptcha), element ids randomised per session'),
  eproc('TRF4', 'captcha', 'same situation as TRF2'),
  eproc('TRF6', 'captcha', 'same situation as TRF2'),
  { sigla: 'TJMT', sistema: 'SPA + REST', motivo: 'anti_bot', nota: 'a computed X-Fingerprint header per request' },
  { sigla: 'TJPA', sistema: 'SPA + REST', motivo: 'captcha', nota: 'a captcha in the front end (the API does not check it); 429 throttling' },
  { sigla: 'TJBA', sistema: 'PJe consulta pública', motivo: 'captcha', nota: 'captcha enforced server-side' },
  { sigla: 'TJPB', sistema: 'PJe consulta pública', motivo: 'anti_bot', nota: 'Cloudflare challenge' },
  { sigla: 'TJRR', sistema: 'PJe consulta pública', motivo: 'captcha', nota: 'captcha' },
  { sigla: 'TJSE', sistema: null, motivo: 'captcha', nota: 'captcha' },
  { sigla: 'TJMS', sistema: 'e-SAJ', motivo: 'captcha', nota: 'reCAPTCHA v3' },
  { sigla: 'TJGO', sistema: 'PROJUDI', motivo: 'anti_bot', nota: 'Cloudflare Turnstile and an "unusual behaviour" block' },
  { sigla: 'TJPR', sistema: 'PROJUDI', motivo: 'captcha', nota: 'captcha' },
  { sigla: 'TJAM', sistema: 'PROJUDI', motivo: 'anti_bot', nota: 'behind an F5 anti-bot' },
  { sigla: 'TJES', sistema: null, motivo: 'login', nota: 'login required' },
  { sigla: 'TJPI', sistema: null, motivo: 'login', nota: 'login required' },
  { sigla: 'TJTO', sistema: null, motivo: 'login', nota: 'login required' },
  { sigla: 'TJRN', sistema: null, motivo: 'desconhecida', nota: 'no sample and no stable host found' },
  eproc('TJRS', 'login', 'login and 2FA'),
  eproc('TJSC', 'login', 'login and 2FA'),
  { sigla: 'TST', sistema: 'PJe consultaprocessual', motivo: 'captcha', nota: 'basic data open; parties, value and movements behind an image captcha' },
  ...Array.from({ length: 24 }, (_, i) => trt(i + 1)),
]);

export function closedCourt(sigla: string): ClosedCourt | undefined {
  return CLOSED_COURTS.find((c) => c.sigla === sigla);
}
