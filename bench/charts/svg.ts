/**
 * A horizontal grouped bar chart as a static SVG that GitHub shows inline: no script, no external font or CSS, a
 * white background (legible in dark mode), explicit size and viewBox. Bars start at zero, so a bar twice as long
 * is twice the value; an optional range draws the min–max of the rounds as a whisker.
 */

export interface Bar {
  value: number;
  /** Min and max over rounds or windows, drawn as a whisker. */
  range?: readonly [number, number];
  /** Written after the bar; default: the value. */
  label?: string;
}

export interface BarChart {
  title: string;
  subtitle?: string;
  /** The value axis: what is measured and its unit. */
  axis: string;
  series: readonly string[];
  /** One bar per series (undefined: none) in each group. */
  groups: readonly { label: string; bars: readonly (Bar | undefined)[] }[];
}

/** Okabe–Ito: told apart with every kind of colour blindness. */
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];
const FONT = `font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"`;
const WIDTH = 800;
const BAR = 14;
const GAP = 12;
/** Width of a character at 12 px, a little above the average of the fonts above. */
const CHAR = 6.8;

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c);
const px = (value: number) => String(Math.round(value * 10) / 10);
const text = (x: number, y: number, content: string, extra = "") =>
  `<text x="${px(x)}" y="${px(y)}" ${extra}>${xml(content)}</text>`;

/** A round step for about five ticks: 1, 2, 2.5 or 5 times a power of ten. */
function tickStep(max: number): number {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return (power * ([1, 2, 2.5, 5, 10].find((step) => step * power >= raw) ?? 10)) as number;
}

const tickLabel = (value: number) => String(Number(value.toPrecision(6)));
/** Labels wider than the label column are cut, with an ellipsis. */
const LABEL_CHARS = 44;
const fit = (label: string) => (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label);

export function barChart(chart: BarChart): string {
  const bars = chart.groups.flatMap((group) => group.bars.filter((bar) => bar !== undefined));
  const top = Math.max(...bars.map((bar) => Math.max(bar.value, bar.range?.[1] ?? 0)), Number.MIN_VALUE);
  const step = tickStep(top);
  const max = Math.ceil(top / step) * step;
  const labelWidth = Math.max(...chart.groups.map((group) => fit(group.label).length)) * CHAR + 16;
  const valueWidth = Math.max(...bars.map((bar) => (bar.label ?? tickLabel(bar.value)).length)) * CHAR + 12;
  const left = labelWidth + 8;
  const width = WIDTH - left - valueWidth - 16;
  const x = (value: number) => left + (value / max) * width;
  const out: string[] = [];
  // Legend: one swatch per series, wrapping at the chart's width.
  let legendX = left;
  let legendY = chart.subtitle ? 56 : 40;
  chart.series.forEach((name, index) => {
    const itemWidth = 22 + name.length * CHAR + 18;
    if (legendX + itemWidth > WIDTH - 16 && legendX > left) [legendX, legendY] = [left, legendY + 20];
    out.push(`<rect x="${px(legendX)}" y="${px(legendY)}" width="12" height="12" fill="${COLOURS[index % 6]}"/>`);
    out.push(text(legendX + 18, legendY + 10.5, name));
    legendX += itemWidth;
  });
  const plotTop = legendY + 30;
  let y = plotTop;
  for (const group of chart.groups) {
    const drawn = group.bars.filter((bar) => bar !== undefined).length;
    out.push(text(left - 8, y + (drawn * (BAR + 2) - 2) / 2 + 4, fit(group.label), `text-anchor="end"`));
    group.bars.forEach((bar, index) => {
      if (!bar) return;
      const end = x(Math.max(bar.value, bar.range?.[1] ?? 0));
      out.push(
        `<rect x="${px(left)}" y="${px(y)}" width="${px(x(bar.value) - left)}" height="${BAR}" fill="${COLOURS[index % 6]}"><title>${xml(`${chart.series[index]}: ${bar.label ?? tickLabel(bar.value)}`)}</title></rect>`,
      );
      if (bar.range) {
        const [low, high] = bar.range.map(x) as [number, number];
        const mid = y + BAR / 2;
        out.push(
          `<path d="M${px(low)} ${px(mid)}H${px(high)}M${px(low)} ${px(mid - 4)}v8M${px(high)} ${px(mid - 4)}v8" stroke="#222"/>`,
        );
      }
      out.push(text(end + 6, y + BAR - 3, bar.label ?? tickLabel(bar.value), `fill="#222"`));
      y += BAR + 2;
    });
    y += GAP;
  }
  const plotBottom = y - GAP + 6;
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, index) => index * step);
  const grid = ticks.map((tick) =>
    [
      `<line x1="${px(x(tick))}" y1="${px(plotTop - 6)}" x2="${px(x(tick))}" y2="${px(plotBottom)}" stroke="${tick === 0 ? "#444" : "#e3e3e3"}"/>`,
      text(x(tick), plotBottom + 16, tickLabel(tick), `text-anchor="middle" fill="#444"`),
    ].join(""),
  );
  const height = plotBottom + 50;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${px(height)}" viewBox="0 0 ${WIDTH} ${px(height)}" role="img" aria-label="${xml(chart.title)}" ${FONT} font-size="12" fill="#111">`,
    `<title>${xml(chart.title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    text(16, 24, chart.title, `font-size="15" font-weight="bold"`),
    ...(chart.subtitle ? [text(16, 42, chart.subtitle, `fill="#555"`)] : []),
    ...grid,
    ...out,
    text(left + width / 2, plotBottom + 38, chart.axis, `text-anchor="middle" fill="#444"`),
    "</svg>",
    "",
  ].join("\n");
}
