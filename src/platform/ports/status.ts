/**
 * Which sources this deployment has (GET /v1, GET /v1/integrador): each by name, whether it is
 * configured, whether it is the sandbox's simulator, and whether it needs an operator's provider
 * (DESIGN.md §8). Never a URL, a key or a token.
 */
import type { Sources } from './sources.ts';
import { upstreamStates } from '../observability/upstreams.ts';
import { SAUDE, sourceHealth, type Saude } from '../observability/source-health.ts';

export interface SourceStatus {
  nome: string;
  /** What it serves, in a few words. */
  serve: string;
  configurada: boolean;
  sandbox: boolean;
  /** Served through a provider the operator configures (docs/providers.md). */
  provedor: boolean;
  /**
   * What this process saw of it lately: `falhando` after 3 failed requests in a row (5xx, 429,
   * timeouts, unreachable) until one succeeds; `desconhecido` before any request.
   */
  estado: 'ok' | 'falhando' | 'desconhecido' | 'nao_configurada';
  /** Its health across the deployment (observability/source-health.ts, issue 51). */
  saude: Saude;
  /** The last failure's kind (server_error, rate_limited, timeout, network) and when, or null. */
  ultimaFalha: { tipo: string; em: string } | null;
}

const ESTADO = { ok: 'ok', failing: 'falhando', unknown: 'desconhecido' } as const;

export function sourcesStatus(s: Sources): SourceStatus[] {
  const seen = new Map(upstreamStates().map((u) => [u.nome, u]));
  const one = (nome: string, key: string, serve: string, src: { info: { sandbox: boolean } } | null, provedor = false): SourceStatus => {
    const u = src ? seen.get(key) : undefined;
    return {
      nome,
      serve,
      configurada: src !== null,
      sandbox: src?.info.sandbox ?? false,
      provedor,
      estado: src === null ? 'nao_configurada' : ESTADO[u?.estado ?? 'unknown'],
      saude: SAUDE[sourceHealth(key).state],
      ultimaFalha: u?.ultimaFalha && u.ultimaFalhaEm ? { tipo: u.ultimaFalha, em: u.ultimaFalhaEm } : null,
    };
  };
  return [
    one('DataJud', 'datajud', 'capa e movimentações de processos', s.cases),
    one('Portal', 'portal', 'partes, advogados, valor e documentos públicos', s.details, true),
    one('DJEN', 'djen', 'publicações e intimações', s.publications),
    one('STF', 'stf', 'Diário da Justiça eletrônico do STF', s.stf),
    one('DJE eleitoral', 'dje-eleitoral', 'diários eletrônicos do TSE e dos TREs', s.electoral),
    one('Mural eleitoral', 'mural', 'mural eletrônico do TSE e dos TREs', s.mural, true),
    one('Mandados', 'mandados', 'mandados de prisão do BNMP', s.warrants, true),
    one('Modelo', 'modelo', 'resumos por IA (sem ele, o redator offline)', s.model),
    one('Protocolo Integrado', 'protocolo', 'processos administrativos federais por NUP', s.administrative),
    one('TJRJ precatórios', 'tjrj', 'ordem cronológica de precatórios do TJRJ', s.tjrj),
    // Each enabled court's public consultation (issue 31): a captcha or anti-bot page shows as its last failure.
    ...(s.consultas?.courts ?? []).map((c) =>
      one(`Consulta ${c.sigla}`, c.source, `partes, advogados, valor e movimentações com texto (${c.sistema})`, { info: { sandbox: s.consultas!.sandbox } }),
    ),
  ];
}
