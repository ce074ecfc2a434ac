/** docs/configuration.md: the settings table (src/config.ts) as a page, written by `npm run docs`. */
import { SETTINGS } from '../src/config.ts';

export function configurationMarkdown(): string {
  const rows = SETTINGS.map((s) => `| \`${s.env}\` | \`${s.default}\` | ${s.doc} |`);
  return [
    '# Configuration',
    '',
    'Tramita reads these environment variables (the server, `tramita worker` and every CLI command alike).',
    'This file is generated from `src/config.ts` by `npm run docs`; a test fails when they differ.',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
