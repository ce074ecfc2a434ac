/**
 * Overview: the balance, what the account spent per day and per query type over 30 days (a chart
 * drawn here as SVG, with the same numbers in a table for screen readers), its last requests with
 * their requestId and searchLogId, each source's health (issue 51), and the person's open sessions with "sign out everywhere".
 */
import type { FastifyInstance } from 'fastify';
import { iso } from '../../../platform/clock.ts';
import { brasiliaDay, brasiliaDayStart, formatReais } from '../../../platform/format.ts';
import { csrfField, html, table, trusted, when, escapeHtml } from '../html.ts';
import { planName, sendPage, signedIn, type ConsoleParts } from '../parts.ts';
import { sourcesStatus } from '../../../platform/ports/status.ts';

const DAYS = 30;
/** Each source's health as the dashboard words it (issue 51). */
const SAUDE_TEXTO = { saudavel: 'saudável', degradada: 'degradada', falhando: 'falhando' } as const;
const COLOURS = ['#0b5cad', '#c9541b', '#2e8b3e', '#8a3ec9', '#b08800', '#5b6474'];

interface DaySpend {
  /** A day in Brasília (`yyyy-mm-dd`). */
  dia: string;
  query_type: string;
  centavos: number;
}

export function overviewPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/visao-geral', async (req, reply) => {
    const who = signedIn(req);
    const accountId = who.account.id;
    const today = brasiliaDay(iso(m.s.clock.now()))!;
    const first = brasiliaDay(brasiliaDayStart(today, -(DAYS - 1)))!;
    const [balance, spend, requests, sessions] = await Promise.all([
      m.s.accounts.balance(accountId),
      spendByDay(m, accountId, brasiliaDayStart(first)),
      m.store.recentSearches(accountId, 20),
      m.store.sessions(who.user.id),
    ]);
    const days = Array.from({ length: DAYS }, (_, i) => brasiliaDay(brasiliaDayStart(first, i))!);
    const byType = totalsByType(spend);
    return sendPage(
      req,
      reply,
      { title: 'Visão geral', section: 'visao-geral' },
      html`
<div class="numeros">
  <div>Saldo<strong>${formatReais(balance ?? 0)}</strong></div>
  <div>Gasto em ${DAYS} dias<strong>${formatReais(byType.reduce((sum, t) => sum + t.centavos, 0))}</strong></div>
  <div>Plano<strong>${planName(who.account.plan)}</strong></div>
</div>
<h2>Consumo por dia e por tipo de consulta</h2>
<div class="grafico">${trusted(
        spendChart(
          days,
          spend,
          byType.map((t) => t.tipo),
        ),
      )}</div>
${table(
  'Consumo por tipo de consulta nos últimos 30 dias',
  ['Tipo de consulta', 'Valor'],
  byType.map((t) => [html`<code>${t.tipo}</code>`, formatReais(t.centavos)]),
  'Nenhuma consulta cobrada nos últimos 30 dias.',
)}
<h2>Fontes</h2>
${table(
  'A saúde de cada fonte (falhando: não é esperada nas consultas e é sondada em segundo plano até responder)',
  ['Fonte', 'Saúde', 'Última falha'],
  sourcesStatus(m.s.sources)
    .filter((f) => f.configurada)
    .map((f) => [f.nome, SAUDE_TEXTO[f.saude], f.ultimaFalha ? html`<code>${f.ultimaFalha.tipo}</code> ${when(f.ultimaFalha.em)}` : '—']),
)}
<h2>Últimas requisições</h2>
${table(
  'As 20 requisições mais recentes',
  ['Quando', 'Requisição', 'Status', 'Cobrado', 'requestId', 'searchLogId'],
  requests.map((r) => [
    when(r.created_at),
    html`<code>${r.method} ${r.path}</code>`,
    String(r.status_code),
    formatReais(r.charged_centavos),
    html`<code>${r.request_id}</code>`,
    html`<code>${r.id}</code>`,
  ]),
  'Nenhuma requisição ainda.',
)}
<h2>Suas sessões abertas</h2>
${table(
  'Sessões abertas com o seu e-mail',
  ['Desde', 'Último uso', 'Endereço', 'Navegador'],
  sessions.map((s) => [when(s.created_at), when(s.last_seen_at), s.ip ?? '—', s.user_agent ?? '—']),
)}
<form method="post" action="/console/sair-de-todos" data-confirmar="Encerrar todas as sessões, inclusive esta?">${csrfField(who.session.csrf_token)}
  <button type="submit" class="secundario">Sair de todas as sessões</button></form>`,
    );
  });
}

/**
 * Debits per Brasília day and query type since `since`: summed per UTC hour by the store, then each
 * hour put in its day here (Brasília is UTC−3 all year). Read
 * from the search logs, keyed by (account_id, created_at): each charge's log carries its total and
 * query type, written with its debit rows at the same instant (the ledger is keyed by its statement's
 * order, migration 0029, and has no index by time).
 */
async function spendByDay(m: ConsoleParts, accountId: string, since: string): Promise<DaySpend[]> {
  const hours = await m.store.spendByHour(accountId, since);
  const out = new Map<string, DaySpend>();
  for (const h of hours) {
    const dia = brasiliaDay(`${h.hora}:00:00Z`)!;
    const key = `${dia}|${h.query_type}`;
    const row = out.get(key) ?? { dia, query_type: h.query_type ?? 'sem tipo', centavos: 0 };
    row.centavos += Number(h.centavos);
    out.set(key, row);
  }
  return [...out.values()];
}

function totalsByType(spend: DaySpend[]): { tipo: string; centavos: number }[] {
  const totals = new Map<string, number>();
  for (const r of spend) totals.set(r.query_type, (totals.get(r.query_type) ?? 0) + Number(r.centavos));
  return [...totals].map(([tipo, centavos]) => ({ tipo, centavos })).sort((a, b) => b.centavos - a.centavos);
}

/** Stacked bars, one per day: the five biggest query types in their colours, the rest together. */
function spendChart(days: string[], spend: DaySpend[], typesBySpend: string[]): string {
  const shown = typesBySpend.slice(0, COLOURS.length - 1);
  const series = [...shown, ...(typesBySpend.length > shown.length ? ['outros'] : [])];
  const cell = new Map<string, number>();
  for (const r of spend) {
    const key = `${r.dia}|${shown.includes(r.query_type) ? r.query_type : 'outros'}`;
    cell.set(key, (cell.get(key) ?? 0) + Number(r.centavos));
  }
  const W = 900,
    H = 260,
    L = 70,
    B = 40,
    T = 10;
  const dayTotals = days.map((d) => series.reduce((sum, t) => sum + (cell.get(`${d}|${t}`) ?? 0), 0));
  const max = Math.max(1, ...dayTotals);
  const barW = (W - L - 10) / days.length;
  const y = (v: number) => H - B - (v / max) * (H - B - T);
  const bars = days
    .map((d, i) => {
      let base = 0;
      return series
        .map((t, j) => {
          const v = cell.get(`${d}|${t}`) ?? 0;
          if (v === 0) return '';
          const rect =
            `<rect x="${(L + i * barW + 1).toFixed(1)}" y="${y(base + v).toFixed(1)}" width="${(barW - 2).toFixed(1)}" ` +
            `height="${(y(base) - y(base + v)).toFixed(1)}" ` +
            `fill="${COLOURS[j]}"><title>${escapeHtml(`${d} · ${t}: ${formatReais(v)}`)}</title></rect>`;
          base += v;
          return rect;
        })
        .join('');
    })
    .join('');
  const labels = days
    .map((d, i) =>
      i % 5 === 0 || i === days.length - 1
        ? `<text x="${(L + i * barW + barW / 2).toFixed(1)}" y="${H - B + 16}" font-size="11" text-anchor="middle">${d.slice(8, 10)}/${d.slice(5, 7)}</text>`
        : '',
    )
    .join('');
  const axis = [0, 0.5, 1]
    .map(
      (f) =>
        `<text x="${L - 6}" y="${(y(max * f) + 4).toFixed(1)}" font-size="11" text-anchor="end">${escapeHtml(formatReais(Math.round(max * f)))}</text><line ` +
        `x1="${L}" x2="${W - 10}" y1="${y(max * f).toFixed(1)}" y2="${y(max * f).toFixed(1)}" stroke="#d5d9e0"/>`,
    )
    .join('');
  const legend = series
    .map(
      (t, j) =>
        `<g transform="translate(${L + j * 140},${H - 8})"><rect width="10" height="10" y="-9" fill="${COLOURS[j]}"/><text x="14" ` +
        `font-size="11">${escapeHtml(t.length > 18 ? `${t.slice(0, 17)}…` : t)}</text></g>`,
    )
    .join('');
  const total = dayTotals.reduce((a, b) => a + b, 0);
  const summary = `Consumo diário dos últimos ${days.length} dias: ${formatReais(total)} no total; os valores por tipo estão na tabela abaixo.`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" ` + `aria-label="${escapeHtml(summary)}">${axis}${bars}${labels}${legend}</svg>`
  );
}
