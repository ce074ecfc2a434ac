/** The DJEN / Comunica PJe connector's public surface (reference/upstream/djen.md). */
export { DjenConnector, djenOptionsFromConfig, PUBLIC_DJEN_URL, type DjenConnectorOptions } from './connector.ts';
export { toPublication, toPublications, toCadernoMetadata, normalizeOab, publicationDate, type CadernoMetadata } from './parse.ts';
export { oabSpellings, searchFilters, PAGE_SIZE, RESULT_CAP } from './query.ts';
export { djenError, isDjenFailure, SOURCE_NAME } from './errors.ts';
export { DEFAULT_DJEN_RETRY, type DjenRetryPolicy } from './retry.ts';
export type { RequestStats as DjenStats } from '../http/loop.ts';
