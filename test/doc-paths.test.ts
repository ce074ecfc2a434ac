/**
 * Every file or folder that README.md and docs/architecture.md name exists (issue 33, item 7): a doc
 * that points at a file deleted or renamed since is caught here, not by the next reader. Paths are
 * taken from `code spans` and links that look like paths of this repository (a known top folder, or a
 * path under src/ written without it, as docs/architecture.md does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './processes.ts';

const TOP = /^(src|test|docs|bench|scripts|packages|config|bin|platform|capabilities|sources|sandbox|cli)\//;

function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g), ...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
  return [...new Set(spans.map((p) => p.replace(/^\.\.?\//, '').replace(/:\d+$/, '')).filter((p) => TOP.test(p) && !/[*{}<>$]|\.\.\./.test(p)))];
}

/** Where a named path may live: from the root, from src/ (architecture.md's habit), from the doc's folder. */
function exists(p: string, docDir: string): boolean {
  return [path.join(ROOT, p), path.join(ROOT, 'src', p), path.join(docDir, p)].some((c) => fs.existsSync(c));
}

for (const doc of ['README.md', 'docs/architecture.md']) {
  test(`every path ${doc} names exists`, () => {
    const file = path.join(ROOT, doc);
    const missing = namedPaths(fs.readFileSync(file, 'utf8')).filter((p) => !exists(p, path.dirname(file)));
    assert.deepEqual(missing, [], `${doc} names paths that do not exist`);
  });
}
