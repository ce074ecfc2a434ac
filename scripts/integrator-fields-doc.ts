/** docs/integrator-fields.md: every table of integrators' twins (platform/http/integrator-fields.ts), read from the tables themselves. */
import '../src/capabilities/index.ts';
import { integratorTables } from '../src/platform/http/integrator-fields.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function integratorFieldsMarkdown(): string {
  const lines = [
    "# Integrators' field names",
    '',
    'Generated from the code by `npm run docs` (scripts/integrator-fields-doc.ts): do not edit by hand.',
    '',
    'Integrators of the commercial service read some fields under names of their own',
    '(`shared/reference/integrator-conventions.md`). Each REST resource declares those names once, in one',
    'table (`integratorShape` in `src/platform/http/integrator-fields.ts`), from which both its answer and',
    'its response schema come. Twins that mean the same wherever they appear are written once and listed',
    "under each table that uses them: `numero_cnj` and a movement's `data` (`CNJ_TWINS`, `DAY_TWINS` in that",
    "file), the paid monitors' `ativo`, `valorMensal`, `moeda` and `cobranca` (`PAID_MONITOR_TWINS`,",
    '`src/platform/monitoring/paid-monitor-twins.ts`). **same as** means the',
    "very value of our field under the integrators' name; **derived** means their vocabulary for one of",
    "our values or a block they read; **replaces** means the integrators' field takes the place of ours of",
    'the same name (ours moves to the field the table says). What the names mean and which one the spec',
    'uses: [integracao.md](integracao.md#nomes-e-vocabulário).',
    '',
  ];
  for (const [table, twins] of integratorTables) {
    lines.push(`## \`${table}\``, '', "| integrators' name | from | meaning |", '|---|---|---|');
    for (const t of twins) {
      const from = t.of ? `same as \`${t.of}\`` : t.replaces ? 'derived, replaces ours' : 'derived';
      const meaning = t.description === `Same as \`${t.of}\`.` ? '' : (t.description ?? '');
      lines.push(`| \`${t.alias}\` | ${from} | ${cell(meaning)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
