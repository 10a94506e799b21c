/**
 * Charts drawn on the server as SVG (docs/reports.md#the-overview-page): no script, no dependency, nothing the
 * CSP blocks (colours come from classes in dashboard.css, not inline style). Each chart has a title and a
 * description for screen readers; the exact figures are in the table printed with it. Heights are scaled with
 * integers from the API's values, which are never turned into floats; only pixel positions are.
 */

/** One value as the API wrote it (`text`, printed) and as an integer to scale by (`n`: units or micro-units). */
export interface Figure {
  text: string;
  n: bigint;
}

/** A money string of the API ("12.500000") as its micro-units, for scaling only. */
export const micro = (text: string): Figure => ({ text, n: BigInt(text.replace(".", "")) });
/** A count, or an integer string of the API, for scaling. */
export const count = (value: number | string): Figure => ({ text: String(value), n: BigInt(value) });

export interface Series {
  name: string;
  /** the colour class (dashboard.css: chart-a, chart-b) */
  tone: "a" | "b";
  values: Figure[];
}

const W = 720;
const H = 260;
const LEFT = 8;
const RIGHT = 8;
const TOP = 26;
const BOTTOM = 30;
const PLOT_W = W - LEFT - RIGHT;
const PLOT_H = H - TOP - BOTTOM;

/** The pixel height of `n` on a scale whose top is `max` (negative values draw nothing). */
function height(n: bigint, max: bigint): number {
  if (n <= 0n || max <= 0n) return 0;
  return Number((n * BigInt(PLOT_H * 100)) / max) / 100;
}

function largest(series: Series[]): Figure {
  let top: Figure = { text: "0", n: 0n };
  for (const s of series) for (const v of s.values) if (v.n > top.n) top = v;
  return top;
}

/** Which x labels to print: at most about eight, always the first. */
const labelled = (count: number) => {
  const step = Math.max(1, Math.ceil(count / 8));
  return (i: number) => i % step === 0;
};

interface ChartProps {
  id: string;
  title: string;
  description: string;
  labels: string[];
  /** how a label is shortened under the axis ("2026-03-10" -> "03-10") */
  short?: (label: string) => string;
  series: Series[];
  /** what the top of the scale is in ("USDC", "units") */
  unit: string;
}

function Frame({ id, title, description, labels, short = (l) => l, series, unit, children }: ChartProps & { children: JSX.Element[] }) {
  const top = largest(series);
  const slot = PLOT_W / Math.max(1, labels.length);
  const showLabel = labelled(labels.length);
  const scale = `Scale: 0 to ${top.text} ${unit}`;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} aria-labelledby={`${id}-title ${id}-desc`} data-chart={id}>
      <title id={`${id}-title`} safe>
        {title}
      </title>
      <desc id={`${id}-desc`} safe>
        {`${description} ${scale}. The table that follows has every figure.`}
      </desc>
      <text class="chart-scale" x={LEFT} y={16} aria-hidden="true" safe>
        {`${top.text} ${unit}`}
      </text>
      <line class="chart-grid" x1={LEFT} x2={W - RIGHT} y1={TOP} y2={TOP} />
      <line class="chart-axis" x1={LEFT} x2={W - RIGHT} y1={TOP + PLOT_H} y2={TOP + PLOT_H} />
      {children}
      {labels.map((label, i) =>
        showLabel(i) ? (
          <text class="chart-label" x={LEFT + slot * i + slot / 2} y={H - 10} text-anchor="middle" aria-hidden="true" safe>
            {short(label)}
          </text>
        ) : (
          ""
        ),
      )}
    </svg>
  );
}

/** Bars per label, one per series side by side (`rect.bar`, one per value). */
export function BarChart(props: ChartProps) {
  const top = largest(props.series).n;
  const slot = PLOT_W / Math.max(1, props.labels.length);
  const gap = Math.min(6, slot * 0.2);
  const barW = (slot - gap) / props.series.length;
  const bars = props.series.flatMap((s, k) =>
    s.values.map((v, i) => {
      const h = height(v.n, top);
      return (
        <rect
          class={`bar chart-${s.tone}`}
          x={(LEFT + slot * i + gap / 2 + barW * k).toFixed(2)}
          y={(TOP + PLOT_H - h).toFixed(2)}
          width={barW.toFixed(2)}
          height={h.toFixed(2)}
        >
          <title safe>{`${props.labels[i]}: ${s.name} ${v.text}`}</title>
        </rect>
      );
    }),
  );
  return <Frame {...props}>{bars}</Frame>;
}

/** A line through one point per label (`circle.point`, one per value). */
export function LineChart(props: ChartProps) {
  const top = largest(props.series).n;
  const slot = PLOT_W / Math.max(1, props.labels.length);
  const marks = props.series.flatMap((s) => {
    const at = s.values.map((v, i) => [LEFT + slot * i + slot / 2, TOP + PLOT_H - height(v.n, top)] as const);
    return [
      <polyline class={`line chart-${s.tone}`} points={at.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ")} />,
      ...at.map(([x, y], i) => (
        <circle class={`point chart-${s.tone}`} cx={x.toFixed(2)} cy={y.toFixed(2)} r="3.5">
          <title safe>{`${props.labels[i]}: ${s.values[i]!.text} ${props.unit}`}</title>
        </circle>
      )),
    ];
  });
  return <Frame {...props}>{marks}</Frame>;
}

/** The colours' key, as text. */
export function Legend({ series }: { series: Series[] }) {
  return (
    <ul class="chart-legend">
      {series.map((s) => (
        <li>
          <span class={`swatch chart-${s.tone}`} aria-hidden="true"></span> <span safe>{s.name}</span>
        </li>
      ))}
    </ul>
  );
}
