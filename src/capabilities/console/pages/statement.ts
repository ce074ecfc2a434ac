/**
 * The statement: the account's ledger, newest first, filtered by kind, query type and day, and the
 * same rows as CSV (`;`-separated, decimal comma, UTF-8 with BOM: what a spreadsheet in Portuguese
 * opens as is). Read through billing/ledger.ts `statement`, as GET /v1/conta/extrato reads it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { statement, type StatementFilter } from '../../../platform/billing/ledger.ts';
import type { LedgerTable } from '../../../platform/db/schema.ts';
import { brasiliaDayStart, formatReais } from '../../../platform/format.ts';
import { html, table, when } from '../html.ts';
import { DAY, filter, filterQuery, olderPage, sendPage, signedIn, type ConsoleParts } from '../parts.ts';

const PAGE = 100;
/** An export reads the ledger this many rows at a time, up to CSV_MAX rows. */
const CSV_BATCH = 1000;
const CSV_MAX = 100_000;

/** The filters as asked (days in Brasília, as the page shows times) and as the ledger reads them. */
function filters(req: FastifyRequest): { days: { desde?: string; ate?: string }; f: StatementFilter } {
  const tipo = filter(req, 'tipo');
  const days = { desde: filter(req, 'desde', DAY), ate: filter(req, 'ate', DAY) };
  return {
    days,
    f: {
      kind: tipo === 'debito' ? 'debit' : tipo === 'credito' ? 'credit' : undefined,
      queryType: filter(req, 'consulta', /^[a-z0-9_.]{1,80}$/),
      since: days.desde ? brasiliaDayStart(days.desde) : undefined,
      until: days.ate ? brasiliaDayStart(days.ate, 1) : undefined,
    },
  };
}

function query({ days, f }: ReturnType<typeof filters>): URLSearchParams {
  const tipo = f.kind === 'debit' ? 'debito' : f.kind === 'credit' ? 'credito' : undefined;
  return filterQuery({ tipo, consulta: f.queryType, ...days });
}

export function statementPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/extrato', async (req, reply) => {
    const who = signedIn(req);
    const asked = filters(req);
    const { f } = asked;
    const antes = filter(req, 'antes', /^\d{1,15}$/);
    const before = antes ? Number(antes) : undefined;
    const rows = await statement(m.s.db, who.account.id, PAGE + 1, before, f);
    const { shown, older } = olderPage(rows, PAGE, '/console/extrato', query(asked), (last) => String(last.seq));
    const types = m.s.prices.pricesOf(who.account.plan).map((p) => p.queryType);
    return sendPage(
      req,
      reply,
      { title: 'Extrato', section: 'extrato' },
      html`
<form method="get" action="/console/extrato" class="cartao linha" aria-label="Filtros">
  <div><label for="tipo">Lançamento</label><select id="tipo" name="tipo"><option value="">todos</option>${[
    ['debito', 'débitos'],
    ['credito', 'créditos'],
  ].map(
    ([v, l]) => html`<option value="${v}"${(f.kind === 'debit' ? 'debito' : f.kind === 'credit' ? 'credito' : '') === v ? html` selected` : ''}>${l}</option>`,
  )}</select></div>
  <div><label for="consulta">Tipo de consulta</label>
    <select id="consulta" name="consulta"><option value="">todos</option>
      ${types.map((t) => html`<option${t === f.queryType ? html` selected` : ''}>${t}</option>`)}</select></div>
  <div><label for="desde">De</label><input id="desde" name="desde" type="date" value="${asked.days.desde ?? ''}"></div>
  <div><label for="ate">Até</label><input id="ate" name="ate" type="date" value="${asked.days.ate ?? ''}"></div>
  <div><button type="submit">Filtrar</button></div>
  <div><a class="botao" href="/console/extrato.csv?${query(asked).toString()}" download>Exportar CSV</a></div>
</form>
${table(
  'Lançamentos, do mais recente',
  ['Quando', 'Lançamento', 'Tipo de consulta', 'Valor', 'Saldo após', 'requestId', 'Nota'],
  shown.map((r) => [
    when(r.created_at),
    r.kind === 'debit' ? 'débito' : 'crédito',
    r.query_type ? html`<code>${r.query_type}</code>` : '—',
    formatReais(r.delta_centavos),
    formatReais(r.balance_after_centavos),
    r.operation_id ? html`<code>${r.operation_id}</code>` : '—',
    r.note ?? '',
  ]),
  'Nenhum lançamento com esses filtros.',
)}
${older ? html`<p><a href="${older}">Lançamentos mais antigos</a></p>` : ''}`,
    );
  });

  app.get('/extrato.csv', async (req, reply) => {
    const who = signedIn(req);
    const { f } = filters(req);
    const lines = ['\ufeffdata;lancamento;tipo_consulta;valor;saldo_apos;request_id;search_log_id;nota'];
    let before: number | undefined;
    for (let read = 0; read < CSV_MAX; ) {
      const rows = await statement(m.s.db, who.account.id, CSV_BATCH, before, f);
      lines.push(...rows.map(csvLine));
      read += rows.length;
      if (rows.length < CSV_BATCH) break;
      before = rows.at(-1)!.seq;
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="extrato-tramita.csv"')
      .send(`${lines.join('\r\n')}\r\n`);
  });
}

function csvLine(r: LedgerTable): string {
  const money = (c: number) => (c / 100).toFixed(2).replace('.', ',');
  return [
    when(r.created_at),
    r.kind === 'debit' ? 'debito' : 'credito',
    r.query_type ?? '',
    money(r.delta_centavos),
    money(r.balance_after_centavos),
    r.operation_id ?? '',
    r.search_log_id ?? '',
    r.note ?? '',
  ]
    .map(csvCell)
    .join(';');
}

/** Quoted when it holds a separator, a quote or a line break; a leading =+-@ is defused (CSV injection). */
function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
