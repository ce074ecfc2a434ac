/** The one migration set, applied at start and by `tramita migrate`, on both engines. */
import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_core.ts';
import * as m0002 from './0002_cases.ts';
import * as m0003 from './0003_monitoring.ts';
import * as m0004 from './0004_publications.ts';
import * as m0005 from './0005_charge_tables.ts';
import * as m0006 from './0006_case_summaries.ts';
import * as m0007 from './0007_requests_by_account.ts';
import * as m0008 from './0008_gazettes.ts';
import * as m0009 from './0009_precatorios.ts';
import * as m0010 from './0010_precatorio_harvest.ts';
import * as m0011 from './0011_administrative.ts';
import * as m0012 from './0012_rate_limit_counters.ts';
import * as m0013 from './0013_case_search_rowid.ts';
import * as m0014 from './0014_case_party_names.ts';
import * as m0015 from './0015_console.ts';
import * as m0016 from './0016_compact_case_store.ts';
import * as m0017 from './0017_clustered_movements.ts';
import * as m0018 from './0018_listing_order_indexes.ts';
import * as m0019 from './0019_stf_unpublished_days.ts';
import * as m0020 from './0020_consultation_pages.ts';
import * as m0021 from './0021_parties_source.ts';
import * as m0022 from './0022_publication_clean_text.ts';
import * as m0023 from './0023_ledger_sequence.ts';
import * as m0024 from './0024_court_searches.ts';
import * as m0025 from './0025_case_monitor_pages.ts';
import * as m0026 from './0026_source_health.ts';
import * as m0027 from './0027_case_monitor_djen.ts';
import * as m0028 from './0028_court_documents.ts';
import * as m0029 from './0029_ledger_by_sequence.ts';
import * as m0030 from './0030_party_instance.ts';
import * as m0031 from './0031_webhook_endpoint_health.ts';

export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_cases': m0002,
  '0003_monitoring': m0003,
  '0004_publications': m0004,
  '0005_charge_tables': m0005,
  '0006_case_summaries': m0006,
  '0007_requests_by_account': m0007,
  '0008_gazettes': m0008,
  '0009_precatorios': m0009,
  '0010_precatorio_harvest': m0010,
  '0011_administrative': m0011,
  '0012_rate_limit_counters': m0012,
  '0013_case_search_rowid': m0013,
  '0014_case_party_names': m0014,
  '0015_console': m0015,
  '0016_compact_case_store': m0016,
  '0017_clustered_movements': m0017,
  '0018_listing_order_indexes': m0018,
  '0019_stf_unpublished_days': m0019,
  '0020_consultation_pages': m0020,
  '0021_parties_source': m0021,
  '0022_publication_clean_text': m0022,
  '0023_ledger_sequence': m0023,
  '0024_court_searches': m0024,
  '0025_case_monitor_pages': m0025,
  '0026_source_health': m0026,
  '0027_case_monitor_djen': m0027,
  '0028_court_documents': m0028,
  '0029_ledger_by_sequence': m0029,
  '0030_party_instance': m0030,
  '0031_webhook_endpoint_health': m0031,
};
