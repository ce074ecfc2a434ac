/**
 * No line of code wider than the formatter's width (biome.json `lineWidth`): Biome does not break
 * string literals or comments, so this check keeps them within it too. Part of `npm run lint`.
 * Reads the files git tracks (and new ones it does not ignore) that Biome formats.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';

/**
 * The simulators' pages written as the captured upstream pages are (the real PJe, e-SAJ and challenge
 * markup in src/sources/consultas/fixtures): their long lines are the upstream's own, kept whole so that
 * they read line by line against a capture.
 */
const REPRODUCED_MARKUP = new Set([
  'src/sandbox/pje/pages.ts',
  'src/sandbox/pje/documents.ts',
  'src/sandbox/consultas/esaj-page.ts',
  'src/sandbox/consultas/server.ts',
]);

const width: number = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'biome.json'), 'utf8')).formatter.lineWidth;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.split('/').includes('fixtures') && !f.startsWith('packages/sdk/dist/') && !REPRODUCED_MARKUP.has(f))
  .filter((f) => fs.existsSync(path.join(PROJECT_ROOT, f)));

const wide: string[] = [];
for (const file of files) {
  const lines = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8').split('\n');
  // Code points, as an editor counts columns (a line of Portuguese text is longer in bytes).
  lines.forEach((line, i) => {
    const length = [...line].length;
    if (length > width) wide.push(`${file}:${i + 1}: ${length} characters`);
  });
}
if (wide.length > 0) {
  console.error(`${wide.length} line(s) wider than ${width} characters (biome.json lineWidth):\n${wide.join('\n')}`);
  process.exit(1);
}
console.log(`${files.length} files, no line wider than ${width} characters`);
