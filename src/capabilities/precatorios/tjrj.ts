/**
 * The TJRJ precatório harvest, `precatorios.tjrj` (issue 17, wave2.md §G), when
 * TRAMITA_PRECATORIOS_TJRJ is on: every debtor entity's chronological payment order, both regimes,
 * page by page, stored as records of source `tjrj`. The connector reads each item by its keys
 * (TjrjPrecatorio); its values are checked as a list's line is (rows.ts: ordinal `2º`, amounts
 * `R$ …`, the year): the precatório's number is `NumeroPrecatorio` up to its parenthesis, the value the
 * saldo (null once paid). An item that does not read is counted and logged with the reason, never
 * stored half. A failing entity is a warning and the others go on; the whole list is read again the
 * next day.
 */
import { defineRecurring, jobHandler } from '../../platform/jobs/job-type.ts';
import type { Logger } from 'pino';
import { addMs, iso } from '../../platform/clock.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { DebtorEntity, TjrjPrecatorio } from '../../platform/ports/tjrj.ts';
import type { Services } from '../../platform/services.ts';
import { RowError, rowOf, type PrecatorioRow } from './rows.ts';
import { precatorioRecord, upsertPrecatorios } from './store.ts';

export const TJRJ_HARVEST_JOB = 'precatorios.tjrj';
export const TJRJ_HARVEST = defineRecurring(TJRJ_HARVEST_JOB);
const EVERY_MS = 24 * 3_600_000;
const PAGE_SIZE = 100;
/** A runaway list (a page that never shrinks) stops here. */
const MAX_PAGES = 2_000;

/** The item's fields in the order of FIELDS, as rowOf reads a line. */
const FIELDS = ['numero', 'numeroProcesso', 'enteDevedor', 'natureza', 'anoOrcamento', 'ordem', 'situacao', 'valorCentavos', 'credorDocumento'] as const;
const FIELD_MAP = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Record<(typeof FIELDS)[number], number>;

/** `2009.01792-1 (2009.01475-2)` is precatório 2009.01792-1. */
export function tjrjRow(p: TjrjPrecatorio): PrecatorioRow {
  const line: Record<(typeof FIELDS)[number], string> = {
    numero: p.numeroPrecatorio.replace(/\s*\(.*$/, ''),
    numeroProcesso: '',
    enteDevedor: p.entidadeDevedora ?? '',
    natureza: p.natureza ?? '',
    anoOrcamento: p.orcamento === null ? '' : String(p.orcamento),
    ordem: p.ordemPagamento ?? '',
    situacao: p.situacao ?? '',
    valorCentavos: p.saldo ?? '',
    credorDocumento: '',
  };
  return rowOf(
    FIELDS.map((f) => line[f]),
    FIELD_MAP,
  );
}

export interface TjrjHarvest {
  entidades: number;
  registros: number;
  rejeitados: number;
  falhas: number;
}

export function tjrjHarvestJob(s: Services): JobHandler {
  return jobHandler(TJRJ_HARVEST, {
    async run(_payload, { clock, log }) {
      if (s.config.precatoriosTjrj) {
        const r = await harvestTjrj(s, log);
        log[r.registros > 0 || r.falhas > 0 ? 'info' : 'debug'](r, 'TJRJ precatório harvest run');
      }
      return addMs(clock.now(), Math.min(EVERY_MS, s.config.monitorIntervalMs));
    },
  });
}

export async function harvestTjrj(s: Services, log: Logger): Promise<TjrjHarvest> {
  const summary: TjrjHarvest = { entidades: 0, registros: 0, rejeitados: 0, falhas: 0 };
  let entities: DebtorEntity[];
  try {
    entities = await s.sources.tjrj.entities();
  } catch (err) {
    log.warn(
      { failure: (err as { failure?: string }).failure, err: { message: (err as Error).message } },
      'TJRJ precatório harvest: the entity list failed; tried again at the next run',
    );
    return { ...summary, falhas: 1 };
  }
  for (const entity of entities) {
    try {
      const r = await harvestEntity(s, entity);
      summary.entidades++;
      summary.registros += r.registros;
      summary.rejeitados += r.rejeitados;
      if (r.rejeitados > 0)
        log.warn({ entidade: entity.id, rejeitados: r.rejeitados, motivo: r.motivo }, 'TJRJ precatório harvest: items that did not read were skipped');
    } catch (err) {
      summary.falhas++;
      log.warn(
        { entidade: entity.id, failure: (err as { failure?: string }).failure, err: { message: (err as Error).message } },
        'TJRJ precatório harvest failed for an entity; the others go on',
      );
    }
  }
  return summary;
}

async function harvestEntity(s: Services, entity: DebtorEntity): Promise<{ registros: number; rejeitados: number; motivo: string | null }> {
  const origin = {
    fonte: 'tjrj',
    tribunal: 'TJRJ',
    fonteUrl: `TJRJ ordemPagamento, entidade ${entity.id} (${entity.nome})`,
    importacaoId: null,
    coletadoEm: iso(s.clock.now()),
  };
  const out = { registros: 0, rejeitados: 0, motivo: null as string | null };
  for (const regime of ['O', 'E'] as const) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { precatorios: items, unread } = await s.sources.tjrj.orderPage(entity.id, regime, page, PAGE_SIZE);
      const records = [];
      out.rejeitados += unread.length;
      out.motivo ??= unread[0] ?? null;
      for (const item of items) {
        try {
          const row = tjrjRow(item);
          records.push(precatorioRecord({ ...row, enteDevedor: row.enteDevedor ?? entity.nome }, origin, (d) => s.secrets.fingerprint(d)));
        } catch (err) {
          if (!(err instanceof RowError)) throw err;
          out.rejeitados++;
          out.motivo ??= err.message;
        }
      }
      await upsertPrecatorios(s.db, records);
      out.registros += records.length;
      if (items.length + unread.length < PAGE_SIZE) break;
    }
  }
  return out;
}
