/**
 * Administrative processes by NUP: answered from the store while fresh, else read from the source
 * (Protocolo Integrado) and stored. Saving is where news is found: tramitações the stored process
 * did not have become one `nova_movimentacao_administrativa` event for every ATIVO monitor of the
 * NUP, in the save's own transaction (so the event exists exactly when the stored change does),
 * whoever's lookup or check brought them. A source failure throws (never "not found", never charged).
 */
import { addMs, iso } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Nup } from '../../platform/identifiers/nup.ts';
import { formatNup } from '../../platform/identifiers/nup.ts';
import type { AdministrativeProcessRecord } from '../../platform/ports/administrative.ts';
import type { Services } from '../../platform/services.ts';
import type { AdministrativeBody, Bodies } from './bodies.ts';
import { countNews } from './monitor-store.ts';
import { movementView } from './present.ts';
import { findProcess, upsertProcess, type ProcessRow } from './store.ts';

export interface Lookup {
  row: ProcessRow;
  body: AdministrativeBody;
  /** true: read from the source now; false: the stored copy was fresh enough. */
  fromSource: boolean;
}

export class AdministrativeService {
  readonly #s: Services;
  readonly bodies: Bodies;

  constructor(s: Services, bodies: Bodies) {
    this.#s = s;
    this.bodies = bodies;
  }

  /** The process, stored when younger than `maxAgeMinutes`, else from the source; 404 when the source has none. */
  async lookup(nup: Nup, body: AdministrativeBody, maxAgeMinutes: number, signal?: AbortSignal): Promise<Lookup> {
    const stored = await findProcess(this.#s.db, nup.digits);
    const freshSince = iso(addMs(this.#s.clock.now(), -maxAgeMinutes * 60_000));
    if (stored && maxAgeMinutes > 0 && stored.coletado_em >= freshSince) return { row: stored, body, fromSource: false };
    const row = await this.refresh(nup.digits, signal);
    if (!row)
      throw new ApiError(
        'ADMINISTRATIVE_PROCESS_NOT_FOUND',
        `Protocolo Integrado has no process ${nup.masked} (it lists federal bodies' processes since 2015). Nothing was charged.`,
        { nup: nup.masked },
      );
    return { row, body, fromSource: true };
  }

  /** Reads the source now and stores what it says; null when it says it has no such process. */
  async refresh(nup: string, signal?: AbortSignal): Promise<ProcessRow | null> {
    const record = await this.#s.sources.administrative.lookup(nup, signal);
    return record ? this.save(record) : null;
  }

  async save(record: AdministrativeProcessRecord): Promise<ProcessRow> {
    const s = this.#s;
    const body = this.bodies.find(record.nup.slice(0, 5));
    return s.db.transaction().execute(async (trx) => {
      const now = iso(s.clock.now());
      const { row, news } = await upsertProcess(trx, record, { unidade: record.nup.slice(0, 5), fonte: s.sources.administrative.info.name, now });
      if (news.length === 0) return row;
      const audience = await countNews(trx, record.nup, news.length, now);
      if (audience.length === 0) return row;
      await s.events.record(trx, {
        kind: 'nova_movimentacao_administrativa',
        numeroCnj: null,
        tribunal: null,
        source: s.sources.administrative.info.name,
        audience,
        data: {
          nup: formatNup(record.nup),
          nupDigitos: record.nup,
          orgao: body ? { sigla: body.sigla, nome: body.nome } : null,
          assunto: record.assunto,
          novasTramitacoes: news.toReversed().map(movementView),
          quantidadeTramitacoes: record.tramitacoes.length,
        },
        raw: record,
      });
      return row;
    });
  }
}
