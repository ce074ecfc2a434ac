/**
 * A plain line chart as SVG text (no dependency, nothing to install): series of (x, y) points on linear
 * axes, a legend on the right, in the style of bench/scale.ts's plot so docs/benchmarks.md's figures
 * look alike.
 */

export interface ChartSeries {
  name: string;
  points: [number, number][];
  dashed?: boolean;
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
}

const COLOURS = ['#1b6ac9', '#c9541b', '#2e8b3e', '#8a3ec9', '#c9a21b', '#777777'];

/** About five round steps from 0 to the first one at or past `max`. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const out = [0];
  while (out.at(-1)! < max) out.push(Number((out.length * step).toPrecision(6)));
  return out;
}

export function lineChartSvg(chart: Chart): string {
  const W = 680,
    H = 400,
    L = 60,
    R = 150,
    T = 30,
    B = 50;
  const all = chart.series.flatMap((s) => s.points);
  const xMax = Math.max(1e-9, ...all.map(([x]) => x));
  const yTicks = ticks(Math.max(1e-9, ...all.map(([, y]) => y)) * 1.05);
  const yMax = yTicks.at(-1)!;
  const X = (v: number) => L + (v / xMax) * (W - L - R);
  const Y = (v: number) => H - B - (v / yMax) * (H - T - B);
  const lines = chart.series
    .map((s, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const points = s.points.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(' ');
      return (
        `<polyline fill="none" stroke="${colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${points}"/>` +
        `<text x="${W - R + 10}" y="${T + 20 + i * 18}" fill="${colour}" font-size="12">${s.name}</text>`
      );
    })
    .join('\n');
  const yAxis = yTicks
    .map(
      (v) =>
        `<text x="${L - 8}" y="${Y(v) + 4}" font-size="11" text-anchor="end">${v.toLocaleString('en-US')}</text><line x1="${L}" x2="${W - R}" y1="${Y(v)}" ` +
        `y2="${Y(v)}" stroke="#ddd"/>`,
    )
    .join('');
  const xAxis = ticks(xMax)
    .filter((v) => v <= xMax)
    .map((v) => `<text x="${X(v).toFixed(1)}" y="${H - B + 18}" font-size="11" text-anchor="middle">${v.toLocaleString('en-US')}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${L}" y="18" font-size="13">${chart.title}</text>
${yAxis}
${xAxis}
<text x="${(L + W - R) / 2}" y="${H - 10}" font-size="12" text-anchor="middle">${chart.xLabel}</text>
<text x="14" y="${(T + H - B) / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 ${(T + H - B) / 2})">${chart.yLabel}</text>
${lines}
</svg>
`;
}
