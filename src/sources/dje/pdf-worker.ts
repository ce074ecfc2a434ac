/**
 * The other side of pdf-lines.ts: a worker thread that reads PDFs with pdfjs, one message at a time
 * (pdfjs loaded once), and answers each with its lines or the reason it could not read it. A document
 * that takes too long ends the worker from outside.
 */
import { parentPort } from 'node:worker_threads';
import { pdfLines } from './split.ts';

parentPort!.on('message', async (bytes: Uint8Array) => {
  try {
    parentPort!.postMessage({ ok: true, lines: await pdfLines(bytes) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: (err as Error).message ?? String(err) });
  }
});
