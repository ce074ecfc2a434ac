/** Regenerates the docs that are derived from code: docs/errors.md and docs/configuration.md. */
import fs from 'node:fs';
import path from 'node:path';
import { configurationMarkdown, PROJECT_ROOT } from '../src/config.ts';
import { errorsMarkdown } from '../src/platform/errors.ts';

export const GENERATED_DOCS: Record<string, () => string> = {
  'docs/errors.md': errorsMarkdown,
  'docs/configuration.md': configurationMarkdown,
};

if (import.meta.main) {
  for (const [file, render] of Object.entries(GENERATED_DOCS)) {
    fs.writeFileSync(path.join(PROJECT_ROOT, file), render());
    console.log(`wrote ${file}`);
  }
}
