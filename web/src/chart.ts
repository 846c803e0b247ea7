/**
 * Geometry of the requests-per-day chart: one slot per day of the month, requests as a bar from the baseline and
 * refused requests stacked on top. Pure numbers in SVG user units; the DOM code only draws them.
 */
import { daysInMonth, formatCount, formatDate, formatMonth } from './format';
import type { DayUsage } from './types';

export interface ChartBox {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DaySlot {
  day: number;
  date: string;
  /** null for the days of the month still to come. */
  usage: DayUsage | null;
  requests: Rect | null;
  refused: Rect | null;
  /** Centre of the slot, for its label. */
  labelX: number;
  labelled: boolean;
}

export interface Tick {
  value: number;
  y: number;
  label: string;
}

export interface ChartGeometry {
  box: ChartBox;
  plot: { left: number; top: number; right: number; bottom: number };
  max: number;
  ticks: Tick[];
  slots: DaySlot[];
  hasRefused: boolean;
}

/** The smallest 1, 2 or 5 times a power of ten at or above `raw`, and at least 1: counts are whole. */
export function niceStep(raw: number): number {
  if (!(raw > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

/** Ticks from 0 to a round top at or above `max`, about `intervals` of them. */
export function axisTicks(max: number, intervals = 4): { max: number; values: number[] } {
  const step = niceStep(Math.max(max, 1) / intervals);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const values: number[] = [];
  for (let value = 0; value <= top; value += step) values.push(value);
  return { max: top, values };
}

const round = (value: number): number => Math.round(value * 10) / 10;

/** Label every day, every 2nd, 5th or 10th, whichever first leaves room for a two-digit label. */
export function labelEvery(slotWidth: number, minLabelWidth = 22): number {
  for (const every of [1, 2, 5, 10]) {
    if (slotWidth * every >= minLabelWidth) return every;
  }
  return 15;
}

function dateOf(month: string, day: number): string {
  return `${month}-${String(day).padStart(2, '0')}`;
}

export function chartGeometry(month: string, days: readonly DayUsage[], box: ChartBox): ChartGeometry {
  const byDate = new Map(days.map((usage) => [usage.date, usage]));
  const slotCount = Math.max(daysInMonth(month), days.length, 1);
  const hasRefused = days.some((usage) => usage.refused > 0);
  const highest = Math.max(0, ...days.map((usage) => usage.requests + usage.refused));
  const { max, values } = axisTicks(highest);

  const widestLabel = Math.max(...values.map((value) => formatCount(value).length));
  const plot = { left: 10 + widestLabel * 7, top: 10, right: box.width - 4, bottom: box.height - 22 };
  const plotHeight = plot.bottom - plot.top;
  const slotWidth = (plot.right - plot.left) / slotCount;
  const barWidth = Math.max(1, slotWidth * 0.68);
  const every = labelEvery(slotWidth);
  const yOf = (value: number): number => plot.bottom - (value / max) * plotHeight;

  const slots: DaySlot[] = [];
  for (let day = 1; day <= slotCount; day++) {
    const date = dateOf(month, day);
    const usage = byDate.get(date) ?? null;
    const x = round(plot.left + (day - 1) * slotWidth + (slotWidth - barWidth) / 2);
    const requestsTop = usage ? yOf(usage.requests) : plot.bottom;
    const requests =
      usage && usage.requests > 0
        ? { x, y: round(requestsTop), width: round(barWidth), height: round(plot.bottom - requestsTop) }
        : null;
    const refusedTop = usage ? yOf(usage.requests + usage.refused) : plot.bottom;
    const refused =
      usage && usage.refused > 0
        ? { x, y: round(refusedTop), width: round(barWidth), height: round(requestsTop - refusedTop) }
        : null;
    slots.push({
      day,
      date,
      usage,
      requests,
      refused,
      labelX: round(plot.left + (day - 0.5) * slotWidth),
      labelled: day === 1 || day % every === 0,
    });
  }

  const ticks = values.map((value) => ({ value, y: round(yOf(value)), label: formatCount(value) }));
  return { box, plot, max, ticks, slots, hasRefused };
}

/** One sentence for screen readers and for the chart's title: the month's totals and its busiest day. */
export function chartSummary(month: string, days: readonly DayUsage[]): string {
  const total = days.reduce((sum, usage) => sum + usage.requests, 0);
  const refused = days.reduce((sum, usage) => sum + usage.refused, 0);
  const when = formatMonth(month);
  if (total === 0 && refused === 0) return `No requests yet in ${when}.`;
  const parts = [`${formatCount(total)} request${total === 1 ? '' : 's'} in ${when}`];
  const busiest = days.reduce<DayUsage | null>(
    (best, usage) => (usage.requests > (best?.requests ?? 0) ? usage : best),
    null,
  );
  if (busiest) parts.push(`the most on ${formatDate(busiest.date)} (${formatCount(busiest.requests)})`);
  if (refused > 0) parts.push(`${formatCount(refused)} refused`);
  return `${parts.join(', ')}.`;
}
