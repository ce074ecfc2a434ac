/**
 * docs/webhooks.md's event catalog, generated from the declarations (src/platform/events/catalog.ts):
 * the table between the `events:start` and `events:end` markers is replaced, the rest of the page is
 * written by hand. `npm run docs` writes it; test/operations.test.ts fails when it is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';
import { EVENTS } from '../src/platform/events/catalog.ts';
import { audienceText, deliveredSchema } from '../src/platform/events/declare.ts';
import { EVENT_NAMES } from '../src/platform/events/kinds.ts';

const FILE = path.join(PROJECT_ROOT, 'docs', 'webhooks.md');
const START = '<!-- events:start: generated from src/platform/events/catalog.ts by `npm run docs` -->';
const END = '<!-- events:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function eventsTable(): string {
  const lines = ['| event | when | sent to | `data` (`?`: not always present) |', '|---|---|---|---|'];
  for (const kind of EVENT_NAMES) {
    const d = EVENTS[kind];
    const schema = deliveredSchema(d);
    const required = new Set(schema.required ?? []);
    const fields = Object.keys(schema.properties).map((f) => `\`${f}${required.has(f) ? '' : '?'}\``);
    const when = d.description ?? d.summary;
    const legacy = d.legacy ? ` Legacy twin: \`${d.legacy}\`.` : '';
    lines.push(`| \`${kind}\` | ${cell(when + legacy)} | ${cell(audienceText(d.audience))} | ${fields.join(', ')} |`);
  }
  return lines.join('\n');
}

export function webhooksMarkdown(): string {
  const page = fs.readFileSync(FILE, 'utf8');
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/webhooks.md: the markers ${START} … ${END} are missing`);
  return `${page.slice(0, start + START.length)}\n${eventsTable()}\n${page.slice(end)}`;
}
