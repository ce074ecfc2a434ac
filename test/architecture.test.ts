/**
 * The layout is the architecture (docs/architecture.md): layers point down only, and no module
 * imports itself back through a chain of value imports. Type-only imports are erased at run time,
 * so they may cross a circle; they still may not point up a layer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../src');

/**
 * Lower floors may not import higher ones: platform < sources < sandbox, capabilities < app, cli; and
 * capabilities reach the connectors only through their ports (platform/ports/, issue 46).
 */
const FORBIDDEN: Record<string, string[]> = {
  platform: ['capabilities', 'sources', 'sandbox', 'cli', 'app.ts', 'main.ts'],
  sources: ['capabilities', 'sandbox', 'cli', 'app.ts', 'main.ts'],
  sandbox: ['capabilities', 'cli', 'app.ts', 'main.ts'],
  capabilities: ['sources', 'sandbox', 'cli', 'app.ts', 'main.ts'],
};

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !/(^|\/)testing(\/|\.ts$)/.test(path.relative(SRC, p)) ? [p] : [];
  });
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;

/** `import { type A, type B } from …` is erased too. */
function onlyTypes(statement: string): boolean {
  const names =
    /\{([^}]*)\}/
      .exec(statement)?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean) ?? [];
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function edges(): Edge[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return [...text.matchAll(IMPORT)].map((m) => ({
      from: path.relative(SRC, file),
      to: path.relative(SRC, path.resolve(path.dirname(file), m[3] ?? m[4])),
      typeOnly: m[2] !== undefined || onlyTypes(m[0]),
    }));
  });
}

const floor = (file: string) => file.split('/')[0];

test('no import points up a layer (platform and sources never import capabilities, the sandbox or the entry points; capabilities import no connector)', () => {
  const up = edges().filter((e) => FORBIDDEN[floor(e.from)]?.some((f) => e.to === f || e.to.startsWith(`${f}/`)));
  assert.deepEqual(
    up.map((e) => `${e.from} → ${e.to}`),
    [],
  );
});

test("no connector's folder imports another's: what they share is sources/http/ (or a file of sources/ itself)", () => {
  const folder = (file: string) => (file.startsWith('sources/') && file.split('/').length > 2 ? file.split('/')[1] : null);
  const across = edges().filter((e) => {
    const [from, to] = [folder(e.from), folder(e.to)];
    return from !== null && to !== null && from !== to && to !== 'http';
  });
  assert.deepEqual(
    across.map((e) => `${e.from} → ${e.to}`),
    [],
  );
});

/**
 * One failure classifier (issue 55): "no answer" (undici's and the system's error codes, the timeout
 * test) and the ladder of statuses (429, 401/403, 5xx, Retry-After) are read in sources/http/ only, and
 * its failures come from one factory (upstreamError); a connector adds its own cases through
 * classify.ts's hooks, never a copy of the ladder nor an error class of its own.
 */
const OWN_CLASSIFYING: readonly [string, RegExp][] = [
  ['a network error code', /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w*)\b/],
  ['the timeout test', /\bisUpstreamTimeout\b/],
  ['a 429 rung', /status(Code)?\s*={2,3}\s*429\b/],
  ['a 5xx rung', /status(Code)?\s*(>=\s*5\d\d|>\s*499)\b/],
  ['a 401/403 rung', /status(Code)?\s*={2,3}\s*401\s*\|\|/],
  ['the Retry-After reader', /from\s+'[^']*http\/retry-after\.ts'/],
  ['an error class or constructor of its own (upstreamError is the one factory)', /extends\s+(Retryable)?SourceError\b|new\s+(Retryable)?SourceError\(/],
];

test("no file of sources/ outside sources/http/ classifies failures on its own: classify.ts does, with the connector's own cases", () => {
  const own = sourceFiles(path.join(SRC, 'sources'))
    .filter((file) => !path.relative(SRC, file).startsWith('sources/http/'))
    .flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return OWN_CLASSIFYING.filter(([, re]) => re.test(text)).map(([what]) => `${path.relative(SRC, file)}: ${what}`);
    });
  assert.deepEqual(own, []);
});

test('no circle of value imports', () => {
  const graph = new Map<string, string[]>();
  for (const e of edges()) if (!e.typeOnly) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      circles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  assert.deepEqual(circles, []);
});

/**
 * The ground floor (issue 55 item 1): config.ts is the settings table that parses the environment. It
 * imports from src/ only these leaves, each a layer's vocabulary a setting parses, kept in its layer;
 * a leaf imports from src/ only other leaves (type-only imports count: they are arrows too).
 */
const CONFIG_LEAVES = [
  'config-error.ts',
  'platform/billing/brl.ts',
  'platform/http/proxy-trust.ts',
  'platform/http/route-classes.ts',
  'platform/identifiers/uf.ts',
  'sources/datajud/public-key.ts',
  'sources/http/body-limits.ts',
];

test('config.ts is the ground floor: it imports from src/ only the named leaf modules, and they only each other', () => {
  const above = edges().filter((e) => (e.from === 'config.ts' || CONFIG_LEAVES.includes(e.from)) && !CONFIG_LEAVES.includes(e.to));
  assert.deepEqual(
    above.map((e) => `${e.from} → ${e.to}`),
    [],
  );
  for (const leaf of CONFIG_LEAVES) assert.ok(fs.existsSync(path.join(SRC, leaf)), leaf);
});

/**
 * Circles counted with type-only imports too (issue 55 item 4): every group of files that reach each
 * other, by any import, fails; a leaf for the shared types breaks one. The last, the migrations' (the
 * migrator imports them, they import the engine helper, which took its type from the migrator's
 * module), went when `Engine` and `StorageLog` moved to the leaves they belong to (db/engine.ts,
 * db/outage.ts).
 */
test('no circle of imports, type-only ones included', () => {
  const graph = new Map<string, string[]>();
  for (const e of edges()) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components: each group of two or more files is a circle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = stack.splice(stack.indexOf(v));
    if (group.length > 1) circles.push(group.sort().join(' '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  assert.deepEqual(circles, []);
});

/**
 * Capabilities meet only at their doors (issue 55 item 3): what a capability lets others use is
 * exported from its `parts.ts`; a file of one capability imports another's only through that door.
 * `capabilities/index.ts`, the house's composer, builds each capability from its `capability.ts`.
 */
const capabilityOf = (file: string) => (file.startsWith('capabilities/') && file.split('/').length > 2 ? file.split('/')[1] : null);
const DOOR = 'parts.ts';

function pastDoors(): string[] {
  return edges()
    .filter((e) => {
      const [from, to] = [capabilityOf(e.from), capabilityOf(e.to)];
      if (to === null) return false;
      if (e.from === 'capabilities/index.ts') return !/\/(capability|parts)\.ts$/.test(e.to);
      return from !== null && from !== to && e.to !== `capabilities/${to}/${DOOR}`;
    })
    .map((e) => `${e.from} → ${e.to}`);
}

test("capabilities meet only at their doors: another capability's files are imported only through its parts.ts", () => {
  assert.deepEqual(pastDoors(), []);
});

/** A store is a file named store.ts or *-store.ts, or any file in a folder named store/. */
const isStore = (file: string) => /(^|\/|-)store\.ts$/.test(file) || /\/store\//.test(file);
/** Kysely's query builders and the sql tag: what only a store writes. Transactions may be opened by whoever coordinates stores. */
const SQL = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|table|id|lit|join|val)\(/;

test('no SQL outside a store: capability files that are not stores issue no query', () => {
  const outside = sourceFiles(path.join(SRC, 'capabilities'))
    .map((f) => path.relative(SRC, f))
    .filter((f) => !isStore(f) && SQL.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
  assert.deepEqual(outside, []);
});

/**
 * No presenter in a store: a store reads and writes rows; shaping them for a response (a `present…`
 * or `…View` function, or anything from a presenter file) lives beside the routes.
 */
const isPresenter = (file: string) => /(^|\/|-)present(er)?s?\.ts$/.test(file);
const PRESENTER_EXPORT = /^export\s+(async\s+)?function\s+(present\w*|\w+View)\b/m;

test('no presenter inside a store: stores neither define nor import presenters', () => {
  const stores = sourceFiles(path.join(SRC, 'capabilities'))
    .map((f) => path.relative(SRC, f))
    .filter(isStore);
  const importing = new Set(
    edges()
      .filter((e) => isStore(e.from) && isPresenter(e.to))
      .map((e) => e.from),
  );
  const presenting = stores.filter((f) => importing.has(f) || PRESENTER_EXPORT.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
  assert.deepEqual(presenting, []);
});
