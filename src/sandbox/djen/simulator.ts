/**
 * Wires the DJEN simulator for the sandbox server: the communications store (built from the data
 * set), the cadernos, the HTTP handler and the in-process control object (`Sandbox.djen`).
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { UpstreamHandler } from '../http.ts';
import { Cadernos } from './caderno.ts';
import { brasiliaDayOf } from './dates.ts';
import { djenExamples, type DjenExamples } from './examples.ts';
import type { DjenItem } from './model.ts';
import { publishCommunication, type DjenPublishInput } from './publish.ts';
import { renderItem } from './render.ts';
import { djenHandler } from './server.ts';
import { DjenStore } from './store.ts';

/** `Sandbox.djen`: publish communications and find examples, in process. */
export interface SandboxDjen {
  /** Adds a communication dated today (see publish.ts); visible at once. Throws DjenPublishError. */
  publish(input: DjenPublishInput): DjenItem;
  /** An OAB with communications in several spellings, a case with communications, a party, a caderno. */
  examples(): DjenExamples;
  /** Generated communications (visible or not) plus published ones. */
  size(): number;
}

export interface DjenSimulator {
  store: DjenStore;
  control: SandboxDjen;
  handler: UpstreamHandler;
  /** Wall time spent generating the communications (ms). */
  generationMs: number;
}

export function createDjenSimulator(dataset: SandboxDataset, baseUrl: () => string): DjenSimulator {
  const started = performance.now();
  const store = new DjenStore(dataset);
  const generationMs = performance.now() - started;
  const control: SandboxDjen = {
    publish: (input) => renderItem(publishCommunication(store, input, dataset.now())),
    examples: () => djenExamples(store, brasiliaDayOf(dataset.now())),
    size: () => store.table.count + store.publishedCount,
  };
  return { store, control, handler: djenHandler({ store, cadernos: new Cadernos(store), baseUrl }), generationMs };
}
