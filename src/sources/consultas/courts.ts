/**
 * The courts whose public consultation reads without a challenge (reference/upstream/real/README.md
 * §5, recon of 2026-05 to 2026-08), with their system and default base URL per degree: scheme, host
 * and the system's context path. A degree whose public host the recon did not establish is null: its
 * cases answer SOURCE_UNAVAILABLE rather than a guessed host. Courts behind a captcha, a Cloudflare or
 * Turnstile page, a login or a computed fingerprint (TJBA, TJPB, TJMS, TJGO, TJMT, TJPA, eproc courts…)
 * are deliberately absent (DESIGN.md §8): they stay on DataJud and DJEN.
 */
import type { ConsultaSystem } from './record.ts';

export interface ConsultaCourt {
  sigla: string;
  sistema: ConsultaSystem;
  /** Default base URLs; `TRAMITA_CONSULTA_<SIGLA>_URL` replaces the first degree's. */
  urls: { 1: string; 2: string | null };
  /** e-SAJ: the second degree's application (`cposg` at TJSP, `cposg5` at TJAL and TJAC). */
  esajSegundoGrau?: 'cposg' | 'cposg5';
  /** What the recon says an operator should expect (a WAF answering some requests with a challenge…). */
  nota?: string;
}

export const CONSULTA_COURTS: readonly ConsultaCourt[] = Object.freeze([
  { sigla: 'TJSP', sistema: 'esaj', urls: { 1: 'https://esaj.tjsp.jus.br', 2: 'https://esaj.tjsp.jus.br' }, esajSegundoGrau: 'cposg', nota: 'masks CPF/CNPJ' },
  {
    sigla: 'TJAL',
    sistema: 'esaj',
    urls: { 1: 'https://www2.tjal.jus.br', 2: 'https://www2.tjal.jus.br' },
    esajSegundoGrau: 'cposg5',
    nota: 'answers only part of datacenter IPs',
  },
  { sigla: 'TJAC', sistema: 'esaj', urls: { 1: 'https://esaj.tjac.jus.br', 2: 'https://esaj.tjac.jus.br' }, esajSegundoGrau: 'cposg5' },
  { sigla: 'TJDFT', sistema: 'tjdft', urls: { 1: 'https://pje-consultapublica-api.tjdft.jus.br', 2: null } },
  { sigla: 'TRF1', sistema: 'pje', urls: { 1: 'https://pje1g-consultapublica.trf1.jus.br/consultapublica', 2: null } },
  { sigla: 'TRF3', sistema: 'pje', urls: { 1: 'https://pje1g.trf3.jus.br/pje', 2: null }, nota: 'masks CPF/CNPJ' },
  { sigla: 'TRF5', sistema: 'pje', urls: { 1: 'https://pje1g.trf5.jus.br/pjeconsulta', 2: null } },
  { sigla: 'TJMA', sistema: 'pje', urls: { 1: 'https://pje.tjma.jus.br/pje', 2: 'https://pje2.tjma.jus.br/pje2g' } },
  { sigla: 'TJMG', sistema: 'pje', urls: { 1: 'https://pje-consulta-publica.tjmg.jus.br/pje', 2: null } },
  { sigla: 'TJCE', sistema: 'pje', urls: { 1: 'https://pje-consulta.tjce.jus.br/pje1grau', 2: null } },
  {
    sigla: 'TJAP',
    sistema: 'pje',
    urls: { 1: 'https://pje.tjap.jus.br/1g', 2: null },
    nota: 'a WAF refused datacenter IPs from 2026-07: challenged requests are anti_bot',
  },
  {
    sigla: 'TJPE',
    sistema: 'pje',
    urls: { 1: 'https://pje.cloud.tjpe.jus.br/1g', 2: null },
    nota: 'AWS WAF challenges some requests (HTTP 202): those are anti_bot',
  },
  { sigla: 'TJRJ', sistema: 'pje', urls: { 1: 'https://tjrj.pje.jus.br/pje', 2: null } },
  { sigla: 'TJRO', sistema: 'pje', urls: { 1: 'https://pjepg-consulta.tjro.jus.br/consulta', 2: null }, nota: '403 to datacenter IPs seen 2026-07' },
]);

export function consultaCourt(sigla: string): ConsultaCourt | undefined {
  return CONSULTA_COURTS.find((c) => c.sigla === sigla);
}
