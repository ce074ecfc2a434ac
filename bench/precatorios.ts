/**
 * Precatório lists (issue 17): a generated CSV of BENCH_PRECATORIOS rows (default 1,000,000; courts'
 * column names, 70% with a creditor CPF) imported by `importPrecatorios` into a fresh database (SQLite,
 * or DATABASE_URL), beside the same file only read and parsed (the baseline: the store's share is the
 * ratio); then the listing's latency over that store (a court's first page, a budget year, a debtor's
 * fragment, a deep cursor page, a case number, a creditor) beside a primary-key read, and the store's size.
 * Standalone: node bench/precatorios.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { importPrecatorios } from '../src/capabilities/precatorios/import.ts';
import { delimiterOf, headerMap, rowOf, splitCsvLine } from '../src/capabilities/precatorios/rows.ts';
import { listPrecatorios, type PrecatorioFilter } from '../src/capabilities/precatorios/store.ts';
import { cnjCheckDigits, formatCnj } from '../src/platform/identifiers/cnj.ts';
import { cpfCheckDigits } from '../src/platform/identifiers/cpf-cnpj.ts';
import { migrate } from '../src/platform/db/database.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices } from '../src/platform/services.ts';
import { NO_SOURCES } from '../src/platform/ports/unconfigured.ts';
import { freshDatabase } from '../test/harness.ts';

const ROWS = Number(process.env.BENCH_PRECATORIOS ?? 1_000_000);
const RUNS = 200;

function generate(file: string): { processo: string; cpf: string } {
  const out = fs.createWriteStream(file);
  let sample = { processo: '', cpf: '' };
  out.write('ORDEM DE PAGAMENTO;NÚMERO DO PRECATÓRIO;NÚMERO DO PROCESSO;ENTE DEVEDOR;NATUREZA;ANO ORÇAMENTO;SITUAÇÃO;VALOR ATUALIZADO;CPF/CNPJ DO CREDOR\n');
  for (let i = 1; i <= ROWS; i++) {
    const seq = String(i % 9_999_999).padStart(7, '0');
    const origin = String(i % 700).padStart(4, '0');
    const processo = formatCnj(`${seq}${cnjCheckDigits(seq, '2018', '8', '26', origin)}20188 26${origin}`.replace(' ', ''));
    const base = String(100_000_000 + ((i * 7919) % 899_999_999)).padStart(9, '0');
    const cpf = i % 10 < 7 ? `${base}${cpfCheckDigits(base)}` : '';
    if (i === Math.floor(ROWS / 2)) sample = { processo, cpf: cpf || sample.cpf };
    out.write(
      `${(i % 5000) + 1}º;${2020 + (i % 7)}.${i};${processo};MUNICÍPIO ` +
        `FICTÍCIO ${i % 300};${i % 3 ? 'COMUM' : 'ALIMENTAR'};${2020 + (i % 7)};PENDENTE;R$ ${(i % 100_000) + 1},${String(i % 100).padStart(2, '0')};${cpf}\n`,
    );
  }
  out.end();
  return sample;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export async function precatorioBench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-bench-prec-'));
  const file = path.join(dir, 'lista.csv');
  const sample = generate(file);
  await new Promise((r) => setTimeout(r, 200));
  const fresh = await freshDatabase();
  const config = loadConfig({ TRAMITA_LOG_LEVEL: 'warn', TRAMITA_SANDBOX: 'off' }, fresh.config);
  await migrate(fresh.database);
  const s = createServices(config, fresh.database, createLogger('warn'), { sources: NO_SOURCES });
  try {
    // Baseline: the file read and every line parsed and validated, nothing stored.
    let t0 = performance.now();
    let parsed = 0;
    let map: ReturnType<typeof headerMap> | null = null;
    for await (const line of createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
      if (!map) {
        map = headerMap(splitCsvLine(line, delimiterOf(line)));
        continue;
      }
      const row = rowOf(splitCsvLine(line, ';'), map);
      if (row.credorDocumento) s.secrets.fingerprint(row.credorDocumento);
      parsed++;
    }
    const parseS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const imported = (await importPrecatorios(s, file, { tribunal: 'TJSP' })).aceitas;
    const importS = (performance.now() - t0) / 1000;
    const storeMb =
      s.database.engine === 'sqlite'
        ? Number((await sql<{ n: number }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`.execute(s.db)).rows[0].n) / 1e6
        : Number((await sql<{ n: string }>`SELECT pg_database_size(current_database()) AS n`.execute(s.db)).rows[0].n) / 1e6;
    const deep = (await listPrecatorios(s.db, { tribunal: 'TJSP' }, { limit: 1, after: undefined }))[0];
    const middle = await s.db
      .selectFrom('precatorios')
      .select(['ordenacao', 'id'])
      .orderBy('ordenacao')
      .orderBy('id')
      .offset(Math.floor(imported / 2))
      .limit(1)
      .executeTakeFirstOrThrow();
    const kinds: { kind: string; filter: PrecatorioFilter; after?: { ordenacao: string; id: string } }[] = [
      { kind: "a court's first page", filter: { tribunal: 'TJSP' } },
      { kind: 'a court and a budget year', filter: { tribunal: 'TJSP', ano: 2024 } },
      { kind: "a debtor's fragment", filter: { ente: 'ficticio 17' } },
      { kind: 'a page in the middle (cursor)', filter: { tribunal: 'TJSP' }, after: middle },
      { kind: 'a case number', filter: { numeroProcesso: sample.processo.replace(/\D/g, '') } },
      { kind: 'a creditor (fingerprint)', filter: { credorHash: s.secrets.fingerprint(sample.cpf) } },
    ];
    const search: { kind: string; p50Ms: number; p99Ms: number; rows: number }[] = [];
    for (const k of kinds) {
      for (let i = 0; i < 10; i++) await listPrecatorios(s.db, k.filter, { limit: 21, after: k.after });
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        rows = (await listPrecatorios(s.db, k.filter, { limit: 21, after: k.after })).length;
        times.push(performance.now() - t);
      }
      search.push({ kind: k.kind, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), rows });
    }
    const pk: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await s.db.selectFrom('precatorios').selectAll().where('id', '=', deep.id).executeTakeFirst();
      pk.push(performance.now() - t);
    }
    return {
      engine: s.database.engine,
      rows: ROWS,
      imported,
      importPerSecond: imported / importS,
      parsePerSecond: parsed / parseS,
      importS,
      storeMb,
      search,
      pkP50Ms: percentile(pk, 50),
    };
  } finally {
    s.webhooks.sender.close();
    await s.database.close();
    await fresh.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describePrecatorios(r: Awaited<ReturnType<typeof precatorioBench>>): string {
  return [
    `Precatório import (${r.engine}, CSV): ${r.imported} rows in ${r.importS.toFixed(1)} s = ${Math.round(r.importPerSecond)} rows/s (read and parse ` +
      `only: ${Math.round(r.parsePerSecond)} rows/s, ratio ${(r.importPerSecond / r.parsePerSecond).toFixed(2)}); ` +
      `store ${r.storeMb.toFixed(0)} MB.`,
    ...r.search.map(
      (x) =>
        `  listing, ${x.kind}: p50 ${x.p50Ms.toFixed(2)} ms, p99 ${x.p99Ms.toFixed(2)} ms (${x.rows} rows; ratio to a primary-key ` +
        `read ${(x.p50Ms / r.pkP50Ms).toFixed(1)})`,
    ),
    `  primary-key read: p50 ${r.pkP50Ms.toFixed(3)} ms`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describePrecatorios(await precatorioBench()));
