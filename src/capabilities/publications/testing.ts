/**
 * Test helpers of the publication capabilities: hand-built DJEN communications (as the connector
 * normalizes them) and a scripted PublicationSource that records what it was asked. Test-only code.
 */
import { test } from 'node:test';
import type { Harness } from '../../../test/harness.ts';
import { cnjCheckDigits } from '../../platform/identifiers/cnj.ts';
import type { CadernoInfo, PublicationQuery, PublicationRecord, PublicationSource, PublicationSearchResult } from '../../platform/ports/publications.ts';

let nextId = 910_000_000;
let nextSeq = 7_100_000;

/** A valid CNJ number of TJSP, different each call. */
export function tjspNumber(): string {
  const seq = String(nextSeq++).padStart(7, '0');
  return `${seq}${cnjCheckDigits(seq, '2024', '8', '26', '0100')}20248260100`;
}

export interface RecordSpec extends Partial<Omit<PublicationRecord, 'advogados'>> {
  /** Lawyers by canonical OAB (`SP123456`); their registrations are also printed in the text as `OAB/SP 123.456`. */
  oabs?: string[];
  /** Extra words of the act's body. */
  corpo?: string;
}

/** A DJEN communication naming `oabs`, with a fresh numeric id, hash and case number. */
export function publicationRecord(spec: RecordSpec = {}): PublicationRecord {
  const id = spec.id ?? String(nextId++);
  const oabs = spec.oabs ?? [];
  const advogados = oabs.map((o, i) => ({ nome: `ADVOGADA ${i + 1} DE TESTE`, oab: { uf: o.slice(0, 2), numero: o.slice(2) } }));
  const printed = oabs.map((o) => `OAB/${o.slice(0, 2)} ${Number(o.slice(2)).toLocaleString('pt-BR')}`).join(', ');
  const record: PublicationRecord = {
    id,
    hash: `hash${id}`,
    numeroCnj: tjspNumber(),
    tribunal: 'TJSP',
    dataDisponibilizacao: '2026-01-01',
    tipoComunicacao: 'Intimação',
    tipoDocumento: 'Despacho',
    orgao: { id: '1', nome: '1ª Vara Cível' },
    classe: { codigo: '7', nome: 'PROCEDIMENTO COMUM CÍVEL' },
    meio: 'D',
    numeroComunicacao: '1',
    texto: `<p>Intimação das partes. ${spec.corpo ?? ''}</p><p>Advogados: ${printed}</p>`,
    link: `https://esaj.tjsp.jus.br/ato/${id}`,
    ativo: true,
    cancelamento: null,
    destinatarios: [{ nome: 'FULANO DA SILVA', polo: 'A' }],
    advogados,
    raw: { id: Number(id) },
    ...spec,
  };
  return record;
}

export interface ScriptedCall {
  query: PublicationQuery;
}

/**
 * A PublicationSource answering from a list of stored records (filtered by OAB, case, text, court and
 * days as DJEN would), or failing when `fail` says so; it records every query and caderno asked.
 */
export class ScriptedSource implements PublicationSource {
  readonly info = { name: 'DJEN', sandbox: true };
  readonly records: PublicationRecord[] = [];
  readonly queries: PublicationQuery[] = [];
  readonly cadernos: { tribunal: string; data: string }[] = [];
  /** Throws for a query when it returns an error. */
  fail: (q: PublicationQuery) => Error | null = () => null;
  /** The status each caderno reports (default `Processado`). */
  cadernoStatus: (tribunal: string, data: string) => string = () => 'Processado';

  async search(query: PublicationQuery): Promise<PublicationSearchResult> {
    this.queries.push(query);
    const error = this.fail(query);
    if (error) throw error;
    return { items: this.records.filter((r) => matches(r, query)), complete: true, requests: 1 };
  }

  async fetchOne(id: string): Promise<PublicationRecord | null> {
    return this.records.find((r) => r.id === id) ?? null;
  }

  async caderno(tribunal: string, data: string, meio: 'D' | 'E', sink: (items: PublicationRecord[]) => Promise<void>): Promise<CadernoInfo> {
    this.cadernos.push({ tribunal, data });
    const status = this.cadernoStatus(tribunal, data);
    const items = this.records.filter((r) => r.tribunal === tribunal && r.dataDisponibilizacao === data && r.meio === meio);
    if (status === 'Processado' && items.length > 0) await sink(items);
    return { tribunal, data, meio, status, total: items.length, paginas: 1 };
  }

  async certidao(): Promise<Uint8Array | null> {
    return null;
  }

  certidaoUrl(hash: string): string {
    return `https://comunicaapi.pje.jus.br/api/v1/comunicacao/${hash}/certidao`;
  }

  async close(): Promise<void> {}
}

function matches(r: PublicationRecord, q: PublicationQuery): boolean {
  if (q.tribunal && r.tribunal !== q.tribunal) return false;
  if (q.desde && r.dataDisponibilizacao < q.desde) return false;
  if (q.ate && r.dataDisponibilizacao > q.ate) return false;
  if (q.oab && !r.advogados.some((a) => a.oab?.uf === q.oab!.uf && a.oab.numero === q.oab!.numero)) return false;
  if (q.numeroCnj && r.numeroCnj !== q.numeroCnj) return false;
  if (q.texto && !r.texto.toLowerCase().includes(q.texto.toLowerCase())) return false;
  return true;
}

/**
 * A ScriptedSource in place of the harness's DJEN for a test file, and the ingest of records as DJEN's;
 * when the file's tests end, the simulator is put back and the harness closed.
 */
export function scriptedPublications(h: Harness) {
  const simulator = h.sources.publications;
  const source = new ScriptedSource();
  h.sources.publications = source;
  test.after(async () => {
    h.sources.publications = simulator;
    await h.close();
  });
  const ingest = (records: PublicationRecord[]) => h.capabilities.publications.ingest.ingest(records, { name: 'DJEN', sandbox: true });
  return { source, ingest };
}
