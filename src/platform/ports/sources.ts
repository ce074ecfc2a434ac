/**
 * The upstreams a process talks to, one port each: case metadata (case-metadata.ts), case details and
 * consultations (case-details.ts), publications (publications.ts), the gazettes, models and providers
 * (their own files); every connector fails with source-error.ts. Connectors (`sources/<name>/`)
 * implement these against real services; the sandbox simulator speaks the same wire protocols, so the
 * same connector code runs offline and in production.
 *
 * Conventions: CNJ numbers are the 20 bare digits; dates are ISO-8601 UTC strings; codes are strings
 * (upstreams mix numbers and strings); money is integer centavos.
 */
import type { ChatModel } from './model.ts';
import type { ElectoralGazetteSource } from './electoral.ts';
import type { MuralSource } from './mural.ts';
import type { StfGazetteSource } from './stf.ts';
import type { WarrantsSource } from './warrants.ts';
import type { AdministrativeSource } from './administrative.ts';
import type { TjrjPrecatorioSource } from './tjrj.ts';
import type { CaseMetadataSource } from './case-metadata.ts';
import type { AddresseesSource, CaseDetailsSource } from './case-details.ts';
import type { PublicationSource } from './publications.ts';
import type { CoverageSource } from './coverage.ts';

/** The upstreams this process talks to (real services, or the sandbox simulator). */
export interface Sources {
  cases: CaseMetadataSource;
  /** null when no case-details provider is configured. */
  details: CaseDetailsSource | null;
  /** The case-details provider (TRAMITA_PORTAL_URL, or the sandbox's): how its parties are named and the courts it is asked about; null when none. */
  provider?: { nome: string; courts: 'all' | readonly string[] } | null;
  /** The courts whose public consultation this deployment reads (issue 31); null when none is enabled. */
  consultas?: { sandbox: boolean; courts: readonly { sigla: string; sistema: string; source: string }[] } | null;
  /** Where each field of a court's cases comes from in this deployment (ports/coverage.ts; GET /v1/integrador). */
  coverage: CoverageSource;
  /** DJEN: the real API, or the sandbox's simulator. */
  publications: PublicationSource;
  /** A case's parties from its DJEN communications' addressees (case-details.ts), over this object's `publications` as it is at each call. */
  addressees: AddresseesSource;
  /** The language model that writes AI summaries (ports/model.ts); null: the offline writer does. */
  model: ChatModel | null;
  /** The STF's own gazette (ports/stf.ts). */
  stf: StfGazetteSource;
  /** The electoral gazettes, TSE and TREs (ports/electoral.ts). */
  electoral: ElectoralGazetteSource;
  /** The electoral bulletin board's provider (ports/mural.ts); null when none is configured. */
  mural: MuralSource | null;
  /** The warrants provider (ports/warrants.ts); null when none is configured. */
  warrants: WarrantsSource | null;
  /** Protocolo Integrado (ports/administrative.ts): the real site, or the sandbox's. */
  administrative: AdministrativeSource;
  /** TJRJ's precatório API (ports/tjrj.ts): the real one, or the sandbox's. */
  tjrj: TjrjPrecatorioSource;
  close(): Promise<void>;
}
