/**
 * The case-details port over several sources, in order (issue 31): the operator's portal provider
 * first (TRAMITA_PORTAL_URL) for the cases it knows; then the public consultation of an enabled court;
 * then the sandbox's simulated portal for the cases of other courts. A source that does not cover a
 * number's court is skipped; one that fails fails the call (never "not found"): a court's captcha
 * is the answer, not a reason to ask someone else.
 */
import type { SourceInfo } from '../platform/ports/case-metadata.ts';
import type * as Port from '../platform/ports/case-details.ts';

type Closable = Port.CaseDetailsSource & { close?(): Promise<void> };

export class DetailsChain implements Port.CaseDetailsSource {
  readonly info: SourceInfo;
  readonly #members: Closable[];
  constructor(members: Closable[]) {
    if (members.length === 0) throw new RangeError('DetailsChain: no member');
    this.#members = members;
    this.info = members[0]!.info;
  }

  covers(numeroCnj: string): boolean {
    return this.#members.some((m) => m.covers?.(numeroCnj) ?? false);
  }

  pageCourts(): readonly string[] {
    return [...new Set(this.#members.flatMap((m) => m.pageCourts?.() ?? []))];
  }

  isConsultation(source: string): boolean {
    return this.#members.some((m) => m.isConsultation?.(source) ?? false);
  }

  async fetchDetails(numeroCnj: string, signal?: AbortSignal, opts?: Port.DetailsOptions): Promise<Port.CaseDetailsRecord | null> {
    for (const m of this.#members) {
      if (m.covers && !m.covers(numeroCnj)) continue;
      const found = await m.fetchDetails(numeroCnj, signal, opts);
      if (found) return found;
    }
    return null;
  }

  async findByDocument(documento: string, signal?: AbortSignal): Promise<string[]> {
    const all = await Promise.all(this.#members.map((m) => m.findByDocument(documento, signal)));
    return [...new Set(all.flat())];
  }

  async findByName(nome: string, signal?: AbortSignal): Promise<string[]> {
    const all = await Promise.all(this.#members.map((m) => m.findByName(nome, signal)));
    return [...new Set(all.flat())];
  }

  /** The members that search courts (the consultations), their reports put together. */
  async searchCourts(query: Port.CourtSearchQuery, signal?: AbortSignal): Promise<Port.CourtSearchReport> {
    const reports = await Promise.all(this.#members.flatMap((m) => (m.searchCourts ? [m.searchCourts(query, signal)] : [])));
    return {
      consultadas: reports.flatMap((r) => r.consultadas),
      responderam: reports.flatMap((r) => r.responderam),
      falharam: reports.flatMap((r) => r.falharam),
      limitePorTribunal: Math.max(0, ...reports.map((r) => r.limitePorTribunal)),
    };
  }

  /** The court-page member covering the number reads it (issue 53); null when none does. */
  async readDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<Port.CourtDocument | null> {
    for (const m of this.#members) {
      if (!m.readDocument || (m.covers && !m.covers(numeroCnj))) continue;
      const found = await m.readDocument(numeroCnj, documentId, signal);
      if (found) return found;
    }
    return null;
  }

  async downloadDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<{ mimeType: string; body: Uint8Array } | null> {
    for (const m of this.#members) {
      const found = await m.downloadDocument(numeroCnj, documentId, signal);
      if (found) return found;
    }
    return null;
  }

  async close(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.close?.()));
  }
}
