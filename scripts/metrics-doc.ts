/** docs/ops/metrics.md: every Tramita metric, its type, labels and meaning, read from the registries themselves. */
import { httpMetrics } from '../src/platform/observability/metrics.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';

export function metricsMarkdown(): string {
  type Described = { name: string; help: string; labelNames: string[]; constructor: { name: string } };
  const metrics = [...httpMetrics({ defaultMetrics: false }).registry.getMetricsAsArray(), ...telemetry.registry.getMetricsAsArray()] as unknown as Described[];
  const rows = metrics.map((m) => {
    const labels = m.labelNames;
    const type = m.constructor.name.toLowerCase();
    return `| \`${m.name}\` | ${type} | ${
      labels
        .filter((l) => l !== 'le')
        .map((l) => `\`${l}\``)
        .join(', ') || '—'
    } | ${m.help.replace(/\|/g, '\\|')} |`;
  });
  return [
    '# Metrics',
    '',
    'Generated from the code by `npm run docs` (scripts/metrics-doc.ts): do not edit by hand.',
    '',
    "`GET /metrics` (Prometheus text, no key; restrict it at your proxy) serves these series, plus Node's own",
    '(`process_*`, `nodejs_*`: memory, CPU, event-loop lag, GC). Every label has a bounded set of values',
    '(route patterns, route classes, job kinds, source names, query types, monitor kinds, outcomes): never an',
    'id, an account, a URL or a person. Counters count since the process started; gauges marked "at each',
    'scrape" are read from the database when `/metrics` is asked, so every process reports the same values',
    'for them (use `max` across instances, not `sum`).',
    '',
    'A ready-made Grafana dashboard is [grafana-dashboard.json](grafana-dashboard.json) (import it and pick the',
    'Prometheus data source), and alerting rules are in [prometheus-alerts.yml](prometheus-alerts.yml). A test',
    'checks that every metric they use exists.',
    '',
    '| metric | type | labels | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
