/** The DataJud connector's public surface (reference/upstream/datajud.md). */
export { DataJudConnector, dataJudOptionsFromConfig, type DataJudConnectorOptions } from './connector.ts';
export { routeCnj, courtOfAlias, DISPUTED_ALIASES, type AliasRoute } from './aliases.ts';
export { parseHits, movementKey, normalizeDataJudDate, type ParseOptions } from './parse.ts';
export { dataJudError, isDataJudFailure, SOURCE_NAME } from './errors.ts';
export type { RequestStats as DataJudStats } from '../http/loop.ts';
export type { RetryPolicy } from '../http/backoff.ts';
