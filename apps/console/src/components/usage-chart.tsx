import type { UsageHistory } from '../lib/types.js';

/** The drawing area, in SVG user units (the SVG scales to its box). */
const WIDTH = 600;
const HEIGHT = 160;
const PAD = { top: 12, right: 12, bottom: 24, left: 48 };

const number = (n: number) => n.toLocaleString('en');
const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** The smallest "round" number (1, 2 or 5 × 10ⁿ) at or above `n`, so the axis reads easily. */
function niceCeiling(n: number): number {
  if (n <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((step) => step * power >= n) ?? 10) * power;
}

/**
 * A key's daily history as an inline SVG line chart (no chart library: a few dozen lines, no
 * script weight), with a title and a description for screen readers, and the same numbers as a
 * table behind a disclosure. The dashed line is the tier's ceiling when it is in view.
 */
export function UsageChart(props: { history: UsageHistory; label: string }) {
  const { history, label } = props;
  const id = `chart-${history.key.toLowerCase()}`;
  const values = history.points.map((p) => p.value);
  const highest = Math.max(0, ...values);
  const ceiling = history.limit !== null && history.limit > 0 ? history.limit : null;
  const showCeiling = ceiling !== null && ceiling <= niceCeiling(highest) * 2;
  const top = niceCeiling(Math.max(highest, showCeiling && ceiling !== null ? ceiling : 0));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (values.length <= 1 ? innerW : (i * innerW) / (values.length - 1));
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const first = history.points[0];
  const last = history.points.at(-1);
  const summary = last
    ? `${label} from ${shortDate(history.from)} to ${shortDate(history.to)}: ${number(last.value)} on the last day, ` +
      `highest ${number(highest)}${ceiling === null ? '' : `, limit ${number(ceiling)}`}.`
    : `${label}: no data.`;
  return (
    <figure class="chart" data-testid={`usage-chart-${history.key}`}>
      <figcaption class="chart-caption">
        <span>{label}</span>
        <span class="muted small">last {history.points.length} days</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        class="chart-svg"
      >
        <title id={`${id}-title`}>{`${label}, daily`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line class="chart-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} />
        <text class="chart-tick" x={PAD.left - 6} y={y(top) + 4} text-anchor="end">
          {number(top)}
        </text>
        <text class="chart-tick" x={PAD.left - 6} y={y(0) + 4} text-anchor="end">
          0
        </text>
        {showCeiling && ceiling !== null ? (
          <line class="chart-ceiling" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(ceiling)} y2={y(ceiling)} />
        ) : null}
        <polyline class="chart-line" points={line} />
        {first ? (
          <text class="chart-tick" x={PAD.left} y={HEIGHT - 6}>
            {shortDate(first.date)}
          </text>
        ) : null}
        {last ? (
          <text class="chart-tick" x={WIDTH - PAD.right} y={HEIGHT - 6} text-anchor="end">
            {shortDate(last.date)}
          </text>
        ) : null}
      </svg>
      <details class="chart-data">
        <summary>Show the numbers</summary>
        <table>
          <caption class="sr-only">{`${label} per day`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{label}</th>
            </tr>
          </thead>
          <tbody>
            {history.points.map((p) => (
              <tr key={p.date}>
                <th scope="row">{p.date}</th>
                <td>{number(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
