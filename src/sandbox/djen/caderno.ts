/**
 * Cadernos (djen.md §4.6): a court's communications of one day and meio as a ZIP of JSON pages
 * (`{"items":[…]}`, at most 1000 items each, named `<sigla>_<data>_<meio>_<n>.json`), announced by
 * a metadata answer with the ZIP's size and sha256 and a temporary URL. Status: `Processado` for a
 * day up to today with communications, `Sem comunicações` without, `Não Processado` for a future day.
 * ZIPs are built on demand (deflate, fixed timestamps, so the same caderno gives the same bytes)
 * and the last few are cached; a publication bumps the store's version and so rebuilds them.
 */
import { createHash } from 'node:crypto';
import { ZipFile } from 'yazl';
import { dayStart, isoDay } from './dates.ts';
import type { DjenItem, Meio } from './model.ts';
import { renderItem } from './render.ts';
import type { DjenStore, Ref } from './store.ts';

export const CADERNO_PAGE_SIZE = 1000;
/** How long the URL of a caderno stays valid, like the real ≈5-minute presigned URL. */
export const CADERNO_URL_TTL_MS = 5 * 60_000;

export interface CadernoMeta {
  tribunal: string;
  sigla_tribunal: string;
  meio: Meio;
  status: 'Processado' | 'Sem comunicações' | 'Não Processado';
  versao: string;
  data: string;
  total_comunicacoes: number;
  numero_paginas: number;
  tamanho_bytes: string;
  hash: string | null;
  url: string | null;
}

export interface BuiltCaderno {
  zip: Buffer;
  sha256: string;
  total: number;
  pages: number;
}

export const cadernoEntryName = (sigla: string, day: number, meio: Meio, page: number) => `${sigla}_${isoDay(day)}_${meio}_${page}.json`;

export class Cadernos {
  readonly #store: DjenStore;
  readonly #cache = new Map<string, Promise<BuiltCaderno>>();
  readonly #maxCached: number;

  constructor(store: DjenStore, maxCached = 8) {
    this.#store = store;
    this.#maxCached = maxCached;
  }

  /** The court's communications of that day and meio, oldest id first. */
  items(sigla: string, day: number, meio: Meio): DjenItem[] {
    const store = this.#store;
    const t = store.table;
    const refs: Ref[] = [];
    for (let r = t.ranksUpTo(day - 1), end = t.ranksUpTo(day); r < end; r++) refs.push(t.posOf[r]);
    refs.push(...store.publishedRefs());
    return refs
      .filter((ref) => {
        const s = store.summary(ref);
        return s.day === day && s.tribunal === sigla && s.meio === meio;
      })
      .map((ref) => renderItem(store.resolve(ref)));
  }

  build(sigla: string, day: number, meio: Meio): Promise<BuiltCaderno> {
    const key = `${sigla}/${day}/${meio}/${this.#store.version}`;
    let built = this.#cache.get(key);
    if (built)
      this.#cache.delete(key); // move to the most-recent end
    else built = zipPages(sigla, day, meio, this.items(sigla, day, meio));
    this.#cache.set(key, built);
    while (this.#cache.size > this.#maxCached) this.#cache.delete(this.#cache.keys().next().value!);
    built.catch(() => this.#cache.delete(key));
    return built;
  }

  async meta(court: { sigla: string; nome: string }, day: number, meio: Meio, today: number, urlFor: () => string): Promise<CadernoMeta> {
    // Key order as djen.md §4.6 shows it.
    const answer = (status: CadernoMeta['status'], built: BuiltCaderno | null): CadernoMeta => ({
      tribunal: court.nome,
      sigla_tribunal: court.sigla,
      meio,
      status,
      versao: '1',
      data: isoDay(day),
      total_comunicacoes: built?.total ?? 0,
      numero_paginas: built?.pages ?? 0,
      tamanho_bytes: String(built?.zip.length ?? 0),
      hash: built?.sha256 ?? null,
      url: built ? urlFor() : null,
    });
    if (day > today) return answer('Não Processado', null);
    const built = await this.build(court.sigla, day, meio);
    return built.total === 0 ? answer('Sem comunicações', null) : answer('Processado', built);
  }
}

async function zipPages(sigla: string, day: number, meio: Meio, items: DjenItem[]): Promise<BuiltCaderno> {
  const zip = new ZipFile();
  const mtime = new Date(dayStart(day) + 5 * 3_600_000); // 02:00 in Brasília: when cadernos come out
  const pages = Math.ceil(items.length / CADERNO_PAGE_SIZE);
  for (let p = 0; p < pages; p++) {
    const page = items.slice(p * CADERNO_PAGE_SIZE, (p + 1) * CADERNO_PAGE_SIZE);
    zip.addBuffer(Buffer.from(JSON.stringify({ items: page })), cadernoEntryName(sigla, day, meio, p + 1), { mtime, compress: true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return { zip: bytes, sha256: createHash('sha256').update(bytes).digest('hex'), total: items.length, pages };
}
