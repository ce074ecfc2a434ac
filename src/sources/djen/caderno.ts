/**
 * A day's bulk caderno of one court (djen.md §4.6): metadata with a temporary URL, then a ZIP of JSON
 * pages (`{"items":[…]}`, ~1,000 items each). The ZIP is streamed to a temporary file (TJSP's is
 * ~120 MB) and read one entry at a time, each page handed to the sink before the next is read, so
 * memory holds one page, never the whole caderno. The temporary file is removed in every case.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import type { CadernoInfo, CadernoIngestOptions, PublicationRecord } from '../../platform/ports/publications.ts';
import { bodyJson } from '../http/body.ts';
import { bodyRefused } from '../../platform/observability/upstreams.ts';
import { djenError, isDjenFailure, malformed, SOURCE_NAME } from './errors.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';
import { toPublications, type CadernoMetadata } from './parse.ts';

/** `status` of a caderno ready to download; any other is returned without calling the sink. */
export const PROCESSED = 'Processado';

export interface CadernoSteps {
  /** What the messages call this caderno, e.g. `caderno TJSP 2025-10-29 D`. */
  what: string;
  metadata(signal?: AbortSignal): Promise<CadernoMetadata>;
  /** Streams `url` into `file` (one request of the budget). */
  download(url: string, file: string, signal?: AbortSignal): Promise<void>;
  /** Where the temporary directory goes (os.tmpdir() in production). */
  tempDir: string;
  /** Largest JSON page read into memory, unzipped (a page is ~1 MB per 1,000 items): DJEN's body limit. */
  maxEntryBytes: number;
  /** Most bytes all the pages of a ZIP of `zipBytes` may unzip to (UNZIP_LIMIT by default). */
  maxUnzippedBytes?: (zipBytes: number) => number;
}

/**
 * All the pages of a caderno together, unzipped: at most 40 times the ZIP (DJEN's JSON compresses about
 * 10 times), and never less than 64 MB. Each page is bounded too (maxEntryBytes), but a ZIP of many
 * pages just under that bound, each of blanks that compress 1,000 times, would otherwise keep a worker
 * parsing gigabytes from a small download.
 */
export const UNZIP_LIMIT = { ratio: 40, minBytes: 64 * 1024 * 1024 };

function defaultUnzipLimit(zipBytes: number): number {
  return Math.max(UNZIP_LIMIT.minBytes, UNZIP_LIMIT.ratio * zipBytes);
}

export async function ingestCaderno(
  steps: CadernoSteps,
  sink: (items: PublicationRecord[]) => Promise<void>,
  options: CadernoIngestOptions = {},
): Promise<CadernoInfo> {
  const { signal } = options;
  let meta = await steps.metadata(signal);
  if (meta.status !== PROCESSED) return infoOf(meta);
  const dir = await mkdtemp(join(steps.tempDir, 'tramita-djen-caderno-'));
  try {
    const file = join(dir, 'caderno.zip');
    try {
      await steps.download(urlOf(meta, steps.what), file, signal);
    } catch (err) {
      if (!isRefusedUrl(err)) throw err;
      // The temporary URL expired while this request queued for the budget: ask for a fresh one, once.
      meta = await steps.metadata(signal);
      if (meta.status !== PROCESSED) return infoOf(meta);
      await steps.download(urlOf(meta, steps.what), file, signal);
    }
    await readPages(file, steps, meta.total, sink, options);
    return infoOf(meta);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function infoOf(meta: CadernoMetadata): CadernoInfo {
  return { tribunal: meta.tribunal, data: meta.data, meio: meta.meio, status: meta.status, total: meta.total, paginas: meta.paginas };
}

function urlOf(meta: CadernoMetadata, what: string): string {
  if (meta.url === null || !URL.canParse(meta.url)) throw malformed(`DJEN says the ${what} is ${PROCESSED} but gives no absolute download url.`);
  return meta.url;
}

function isRefusedUrl(err: unknown): boolean {
  return isDjenFailure(err) && !err.retryable && (err.status === 403 || err.status === 404);
}

/** Each `.json` entry in ZIP order: read, parsed, mapped, and awaited by the sink before the next. */
async function readPages(
  file: string,
  steps: CadernoSteps,
  total: number,
  sink: (items: PublicationRecord[]) => Promise<void>,
  options: CadernoIngestOptions,
): Promise<void> {
  const zipBytes = (await stat(file)).size;
  const maxUnzipped = (steps.maxUnzippedBytes ?? defaultUnzipLimit)(zipBytes);
  let unzipped = 0;
  const zip = await zipOperation(steps.what, () => openPromise(file, { lazyEntries: true, autoClose: false }));
  try {
    const entries = zip.eachEntry();
    let done = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const next = await zipOperation(steps.what, () => entries.next());
      if (next.done) return;
      const entry: Entry = next.value;
      if (!entry.fileName.toLowerCase().endsWith('.json')) continue;
      const page = `${steps.what} page ${entry.fileName}`;
      const overTotal = () => unzipLimitExceeded(steps.what, zipBytes, maxUnzipped);
      if (unzipped + entry.uncompressedSize > maxUnzipped) throw overTotal();
      const bytes = await readEntry(zip, entry, { page: steps.maxEntryBytes, total: maxUnzipped - unzipped, overTotal }, page, options.signal);
      unzipped += bytes.length;
      const records = toPublications(parseJson(bytes, page), page);
      await sink(records);
      done += records.length;
      options.onProgress?.(done, total);
    }
  } finally {
    zip.close();
  }
}

/** The ZIP's pages together unzip to more than allowed: refused (a warn line and the refused-bodies metric), never read further. */
function unzipLimitExceeded(what: string, zipBytes: number, maxUnzipped: number): RetryableSourceError {
  const message = `DJEN ${what} unzips to more than ${maxUnzipped} bytes (a ZIP of ${zipBytes} bytes): not read further.`;
  bodyRefused(SOURCE_NAME, 'unzipped_too_large', message);
  return malformed(message);
}

interface EntryLimits {
  /** Bytes one page may unzip to. */
  page: number;
  /** Bytes left for this page under the whole ZIP's limit, and the error when over it. */
  total: number;
  overTotal(): RetryableSourceError;
}

async function readEntry(zip: ZipFile, entry: Entry, limits: EntryLimits, page: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const maxBytes = limits.page;
  if (entry.uncompressedSize > maxBytes) throw malformed(`DJEN ${page} declares ${entry.uncompressedSize} bytes, over the ${maxBytes}-byte limit of one page.`);
  const stream = await zipOperation(page, () => zip.openReadStreamPromise(entry));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      size += chunk.length;
      if (size > maxBytes) throw malformed(`DJEN ${page} is over the ${maxBytes}-byte limit of one page.`);
      if (size > limits.total) throw limits.overTotal();
      chunks.push(chunk);
    }
  } catch (err) {
    if (isDjenFailure(err) || signal?.aborted) throw err;
    throw malformed(`DJEN ${page} could not be unzipped (${(err as Error).message.slice(0, 120)}).`);
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

function parseJson(bytes: Buffer, page: string): unknown {
  return bodyJson(bytes, { source: 'djen', what: `DJEN ${page}`, fail: (failure, message) => djenError(failure, message) });
}

/** yauzl's failures (not a ZIP, truncated, bad CRC or sizes) are a malformed caderno. */
async function zipOperation<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isDjenFailure(err)) throw err;
    throw malformed(`DJEN ${what} is not a readable ZIP: ${(err as Error).message}`);
  }
}
