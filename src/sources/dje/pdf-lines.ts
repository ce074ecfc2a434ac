/**
 * Upstream PDFs parsed off the main thread, with a time limit per document (docs/architecture.md,
 * "Linear time"): pdfjs reads an electoral edition (pages of text, fonts, streams to inflate) in a
 * worker thread, so the server keeps answering meanwhile. Documents are read one after another by one
 * worker (pdfjs loaded once); a document still unread after its time limit (a hostile or broken PDF)
 * is abandoned: the worker is terminated, the read fails, and the next document starts a new worker.
 */
import { Worker } from 'node:worker_threads';
import type { PdfLine } from './split.ts';

/** How long one edition's PDF may take to read (a real one of 40 pages takes about a second). */
export const PDF_TIMEOUT_MS = 60_000;

export class PdfTimeoutError extends Error {}

type Answer = { ok: true; lines: PdfLine[] } | { ok: false; error: string };

export class PdfReader {
  #worker: Worker | undefined;
  /** The reads in turn: each waits for the one before (a worker reads one document at a time). */
  #turn: Promise<unknown> = Promise.resolve();

  /** The PDF's lines (split.ts `pdfLines`), read within `timeoutMs` of its turn; PdfTimeoutError past it. */
  read(bytes: Uint8Array, timeoutMs = PDF_TIMEOUT_MS, signal?: AbortSignal): Promise<PdfLine[]> {
    const read = this.#turn.then(() => this.#readNow(bytes, timeoutMs, signal));
    this.#turn = read.catch(() => {});
    return read;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #readNow(bytes: Uint8Array, timeoutMs: number, signal: AbortSignal | undefined): Promise<PdfLine[]> {
    signal?.throwIfAborted();
    if (!this.#worker) {
      this.#worker = new Worker(new URL('./pdf-worker.ts', import.meta.url));
      this.#worker.unref(); // an idle reader never keeps the process alive
    }
    const worker = this.#worker;
    return new Promise<PdfLine[]>((resolve, reject) => {
      const settle = (done: () => void, stop: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onFailure).off('exit', onFailure);
        if (stop) {
          if (this.#worker === worker) this.#worker = undefined;
          void worker.terminate();
        }
        done();
      };
      const timer = setTimeout(() => settle(() => reject(new PdfTimeoutError(`not read within ${timeoutMs} ms`)), true), timeoutMs);
      const onAbort = () => settle(() => reject(signal!.reason), true);
      const onMessage = (a: Answer) => settle(() => (a.ok ? resolve(a.lines) : reject(new Error(a.error))), false);
      const onFailure = (err: unknown) => settle(() => reject(err instanceof Error ? err : new Error(`the PDF reader stopped (${String(err)})`)), true);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).on('error', onFailure).on('exit', onFailure);
      worker.postMessage(bytes);
    });
  }
}
