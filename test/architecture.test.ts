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
