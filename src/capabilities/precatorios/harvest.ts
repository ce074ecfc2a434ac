/**
 * The DataJud precatório harvest, `precatorios.datajud` (issue 17, wave2.md §G): for each court
 * TRAMITA_PRECATORIOS_DATAJUD lists, the processes of TPU classes 1265 (Precatório) and 1266 (RPV)
 * updated since the last run (`precatorio_harvests.desde`), a page at a time within DataJud's budget,
 * stored as records of source `datajud`: number, court, class, the latest movement as the status, the
 * case's dates. DataJud carries no value, debtor, order or creditor (datajud.md §1): those come from
 * the courts' lists. A court that fails is a warning and is asked again at the next run from where it
 * stopped; the others go on.
 */
import { defineRecurring, jobHandler } from '../../platform/jobs/job-type.ts';
import type { Logger } from 'pino';
import { addMs, iso } from '../../platform/clock.ts';
import { COURTS, type Court } from '../../platform/courts/table.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { CaseRecord } from '../../platform/ports/case-metadata.ts';
import type { Services } from '../../platform/services.ts';
import type { PrecatorioRow } from './rows.ts';
import { harvestMark, precatorioRecord, saveHarvestMark, upsertPrecatorios } from './store.ts';

export const PRECATORIO_HARVEST_JOB = 'precatorios.datajud';
export const PRECATORIO_HARVEST = defineRecurring(PRECATORIO_HARVEST_JOB);
export const PRECATORIO_CLASSES = [1265, 1266] as const;
export const HARVEST_SOURCE = 'datajud';
const EVERY_MS = 24 * 3_600_000;
/** The first run of a court reads from here: precatórios live for years. */
const FIRST_SINCE = '2000-01-01T00:00:00.000Z';
const SEGMENTS = new Set(['Estadual', 'Federal', 'Trabalho']);

/** TRAMITA_PRECATORIOS_DATAJUD as courts with a DataJud index: `all` (state, federal and labour courts), `none`, or the siglas listed. */
export function harvestCourts(list: readonly string[]): Court[] {
  const upper = list.map((x) => x.toUpperCase());
  return COURTS.filter((c) => c.datajudAlias && (upper.includes('ALL') ? SEGMENTS.has(c.segmento) : upper.includes(c.sigla)));
}

function rowOfCase(r: CaseRecord): PrecatorioRow {
  const instance = r.instancias.find((i) => (PRECATORIO_CLASSES as readonly number[]).includes(Number(i.classe?.codigo))) ?? r.instancias[0];
  const latest = r.instancias.flatMap((i) => i.movimentos).sort((a, b) => (a.dataHora < b.dataHora ? 1 : -1))[0];
  return {
    numero: formatCnj(r.numeroCnj),
    numeroProcesso: r.numeroCnj,
    enteDevedor: null,
    natureza: null,
    anoOrcamento: null,
    ordem: null,
    situacao: latest ? `${latest.nome} (${latest.dataHora.slice(0, 10)})` : null,
    valorCentavos: null,
    credorDocumento: null,
    classe: instance?.classe?.nome ?? null,
  };
}

/** One court: every page since its mark, then the mark moved to the newest update seen. */
async function harvestCourt(s: Services, court: Court, log: Logger): Promise<number> {
  const mark = await harvestMark(s.db, court.sigla);
  const since = mark?.desde ?? FIRST_SINCE;
  const origin = {
    fonte: HARVEST_SOURCE,
    tribunal: court.sigla,
    fonteUrl: `DataJud ${court.datajudAlias}`,
    importacaoId: null,
    coletadoEm: iso(s.clock.now()),
  };
  let newest = since;
  let count = 0;
  for await (const page of s.sources.cases.scanUpdatedSince(court.datajudAlias!, since, 1000, undefined, PRECATORIO_CLASSES)) {
    await upsertPrecatorios(
      s.db,
      page.map((r) => precatorioRecord(rowOfCase(r), origin, (d) => s.secrets.fingerprint(d))),
    );
    count += page.length;
    for (const r of page) if (r.atualizadoEm && r.atualizadoEm > newest) newest = r.atualizadoEm;
  }
  const row = { tribunal: court.sigla, desde: newest, registros: (mark?.registros ?? 0) + count, atualizado_em: iso(s.clock.now()) };
  await saveHarvestMark(s.db, row);
  if (count > 0) log.info({ tribunal: court.sigla, registros: count }, 'precatório harvest: court read');
  return count;
}

export function precatorioHarvestJob(s: Services): JobHandler {
  return jobHandler(PRECATORIO_HARVEST, {
    async run(_payload, { clock, log }) {
      const courts = harvestCourts(s.config.precatoriosDatajud);
      let registros = 0;
      let falhas = 0;
      for (const court of courts) {
        try {
          registros += await harvestCourt(s, court, log);
        } catch (err) {
          falhas++;
          log.warn(
            { tribunal: court.sigla, err: { message: (err as Error).message, failure: (err as { failure?: string }).failure } },
            'precatório harvest failed for a court; it is read again from its mark at the next run',
          );
        }
      }
      if (courts.length > 0) log[registros > 0 || falhas > 0 ? 'info' : 'debug']({ tribunais: courts.length, registros, falhas }, 'precatório harvest run');
      return addMs(clock.now(), Math.min(EVERY_MS, s.config.monitorIntervalMs));
    },
  });
}
