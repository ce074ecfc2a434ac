/**
 * Which sources this deployment has (GET /v1, GET /v1/integrador): each by name, whether it is
 * configured, whether it is the sandbox's simulator, and whether it needs an operator's provider
 * (DESIGN.md §8). Never a URL, a key or a token.
 */
import type { Sources } from './sources.ts';

export interface SourceStatus {
  nome: string;
  /** What it serves, in a few words. */
  serve: string;
  configurada: boolean;
  sandbox: boolean;
  /** Served through a provider the operator configures (docs/providers.md). */
  provedor: boolean;
}

export function sourcesStatus(s: Sources): SourceStatus[] {
  const one = (nome: string, serve: string, src: { info: { sandbox: boolean } } | null, provedor = false): SourceStatus => ({ nome, serve, configurada: src !== null, sandbox: src?.info.sandbox ?? false, provedor });
  return [
    one('DataJud', 'capa e movimentações de processos', s.cases),
    one('Portal', 'partes, advogados, valor e documentos públicos', s.details, true),
    one('DJEN', 'publicações e intimações', s.publications),
    one('STF', 'Diário da Justiça eletrônico do STF', s.stf),
    one('DJE eleitoral', 'diários eletrônicos do TSE e dos TREs', s.electoral),
    one('Mural eleitoral', 'mural eletrônico do TSE e dos TREs', s.mural, true),
    one('Mandados', 'mandados de prisão do BNMP', s.warrants, true),
    one('Modelo', 'resumos por IA (sem ele, o redator offline)', s.model),
  ];
}
