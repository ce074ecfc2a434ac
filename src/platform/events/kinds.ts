/**
 * The event catalog (spec §6.4): every name Tramita emits, what emits it, and the legacy twin.
 * Receivers must handle `event` tolerantly (the list is open), so adding a kind is not a breaking change.
 */
export const EVENT_KINDS = {
  novo_processo: 'A case became known: stored for the first time, or found by a radar searching by name.',
  novo_processo_envolvido: 'A radar searching by CPF or CNPJ found a new case naming that party.',
  nova_movimentacao: "New movements of a monitored case (whoever's query or check brought them).",
  processo_encontrado: 'The first check of a case monitor found the case at the source (or found it again after not finding it).',
  processo_nao_encontrado: "A case monitor's check did not find the case at the source (sent once per transition).",
  processo_verificado: 'A case monitor completed a check; `data.novasMovimentacoes` says whether anything changed.',
  atualizacao_processo_concluida:
    'A refresh the account asked for (POST solicitar-atualizacao) completed, or a monitor check updated the case, or the parties of a monitored case ' +
    'arrived after its first answer (`data.motivo: PARTES`), or a refresh found new public documents of a monitored case (`data.motivo: DOCUMENTOS`).',
  publicacao_judicial_nova:
    "A new gazette publication (DJEN, the STF's DJe or an electoral DJE, as the monitor's fontes allow) matched a publication monitor by term or OAB.",
  diario_movimentacao_nova: 'A new gazette communication for an intimação monitor (its OAB, in any spelling) or a publication monitor by process number.',
  resultado_busca_oab_async: 'An asynchronous OAB publication search (POST /v1/advogados/oab/monitorar, enviar_callback) ended in SUCESSO or ERRO.',
  resumo_ia_concluido: 'An AI summary requested with POST …/resumo-ia/solicitar-atualizacao and `enviar_callback` ended in FINALIZADO or ERRO.',
  nova_movimentacao_administrativa:
    "New tramitações of an administrative process (by NUP) that an administrative-process monitor follows, whoever's lookup or check found them.",
  resultado_processo_async:
    'A lookup of an administrative process asked with `enviar_callback` (POST /v1/processos/administrativos/nup/{nup}) ended in SUCESSO or ERRO.',
  webhook_desativado:
    "An endpoint of the account (its URL or a monitor's webhook_url) failed every delivery for TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS and was disabled; " +
    'sent to its other endpoints (docs/webhooks.md, endpoint health).',
  teste: 'A test delivery asked for with POST /v1/conta/webhook/teste.',
} as const;

export type EventKind = keyof typeof EVENT_KINDS;

/** Legacy names (spec §9.4), sent as a second delivery of the same event when the account asks for them. */
export const LEGACY_NAMES: Partial<Record<EventKind, string>> = {
  atualizacao_processo_concluida: 'atualizacao_concluida',
};

export const EVENT_NAMES = Object.keys(EVENT_KINDS) as EventKind[];

export function isEventKind(name: string): name is EventKind {
  return Object.hasOwn(EVENT_KINDS, name);
}
