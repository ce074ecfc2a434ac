/**
 * The row changes every paid monitor goes through, whatever its table (case monitors, administrative
 * monitors): a new one's schedule, what a repeated create may change, a reactivation's new period, a
 * removal. Pure: each capability writes them in its own transaction, with what else it owes
 * (subscriptions, the charge).
 */
import type { MonitorFrequency } from '../db/schema.ts';
import { addMs, iso } from '../clock.ts';
import { DEFAULT_FREQUENCY, frequencyMs, RENEWAL_PERIOD_MS } from './frequency.ts';

/** The columns these changes touch. */
export interface MonitorSchedule {
  webhook_url: string | null;
  frequencia: MonitorFrequency;
  status: 'ATIVO' | 'SUSPENSO' | 'REMOVIDO';
  periodo: number;
  preco_centavos: number;
  ultima_verificacao_em: string | null;
  proxima_verificacao_em: string;
  proxima_cobranca_em: string;
  ultimo_erro: string | null;
  atualizado_em: string;
}

/** What a create request asks: undefined keeps (or defaults), a null webhook_url removes it. */
export interface MonitorAsk {
  webhookUrl?: string | null;
  frequencia?: MonitorFrequency;
  priceCentavos: number;
}

/** A new monitor's state: ATIVO, checked at the next cycle, paid for one period from now. */
export function newMonitorState(ask: MonitorAsk, now: Date) {
  return {
    webhook_url: ask.webhookUrl ?? null, frequencia: ask.frequencia ?? DEFAULT_FREQUENCY, status: 'ATIVO', situacao: 'PENDENTE',
    preco_centavos: ask.priceCentavos, verificacoes: 0, novidades: 0, ultima_verificacao_em: null,
    proxima_verificacao_em: iso(now), proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), periodo: 1,
    ultimo_erro: null, criado_em: iso(now), atualizado_em: iso(now), removido_em: null,
  } as const;
}

/** What a repeated create changes on the live monitor (free): its webhook_url or frequency; null when nothing. */
export function repeatedCreateChanges(live: MonitorSchedule, ask: MonitorAsk, intervalMs: number, now: Date): Partial<MonitorSchedule> | null {
  const set: Partial<MonitorSchedule> = {};
  if (ask.webhookUrl !== undefined && ask.webhookUrl !== live.webhook_url) set.webhook_url = ask.webhookUrl;
  if (ask.frequencia !== undefined && ask.frequencia !== live.frequencia) {
    set.frequencia = ask.frequencia;
    // Counted from the last check; a monitor not yet checked is due already.
    if (live.ultima_verificacao_em) set.proxima_verificacao_em = iso(addMs(new Date(live.ultima_verificacao_em), frequencyMs(ask.frequencia, intervalMs)));
  }
  if (Object.keys(set).length === 0) return null;
  set.atualizado_em = iso(now);
  return set;
}

/** A suspended monitor created again: a new paid period at today's price, checked at the next cycle. */
export function reactivation(suspended: MonitorSchedule, ask: MonitorAsk, now: Date) {
  return {
    status: 'ATIVO', periodo: suspended.periodo + 1, preco_centavos: ask.priceCentavos, ultimo_erro: null,
    webhook_url: ask.webhookUrl !== undefined ? ask.webhookUrl : suspended.webhook_url, frequencia: ask.frequencia ?? suspended.frequencia,
    proxima_verificacao_em: iso(now), proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), atualizado_em: iso(now),
  } as const;
}

/** REMOVIDO, final: checks, charges and events stop; the row stays readable (spec §3.2). */
export function removal(now: Date) {
  return { status: 'REMOVIDO', removido_em: iso(now), atualizado_em: iso(now) } as const;
}
