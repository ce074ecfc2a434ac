/**
 * Regenerates the docs that are derived from code: docs/errors.md, docs/configuration.md, docs/endpoints.md, docs/coverage.md, docs/ops/metrics.md,
 * docs/integrator-fields.md and the event catalog of docs/webhooks.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';
import { configurationMarkdown } from './configuration-doc.ts';
import { errorsMarkdown } from '../src/platform/errors.ts';
import { endpointsMarkdown } from './endpoints.ts';
import { metricsMarkdown } from './metrics-doc.ts';
import { coverageMarkdown } from '../src/sources/coverage.ts';
import { integratorFieldsMarkdown } from './integrator-fields-doc.ts';
import { webhooksMarkdown } from './events-doc.ts';

export const GENERATED_DOCS: Record<string, () => string | Promise<string>> = {
  'docs/errors.md': errorsMarkdown,
  'docs/configuration.md': configurationMarkdown,
  'docs/endpoints.md': endpointsMarkdown,
  'docs/coverage.md': coverageMarkdown,
  'docs/ops/metrics.md': metricsMarkdown,
  'docs/integrator-fields.md': integratorFieldsMarkdown,
  'docs/webhooks.md': webhooksMarkdown,
};

if (import.meta.main) {
  for (const [file, render] of Object.entries(GENERATED_DOCS)) {
    fs.writeFileSync(path.join(PROJECT_ROOT, file), await render());
    console.log(`wrote ${file}`);
  }
}
