/** Draws the requests-per-day chart as inline SVG, with a table of the same figures for those who cannot see it. */
import { chartGeometry, chartSummary } from '../chart';
import { h, svg, uid } from '../dom';
import { formatCount, formatDate, formatMonth } from '../format';
import type { DayUsage } from '../types';

const HEIGHT = 220;
const MIN_WIDTH = 280;

function barTitle(usage: DayUsage, hasRefused: boolean): string {
  const base = `${formatDate(usage.date)}: ${formatCount(usage.requests)} request${usage.requests === 1 ? '' : 's'}`;
  return hasRefused ? `${base}, ${formatCount(usage.refused)} refused` : base;
}

function drawChart(month: string, days: readonly DayUsage[], width: number, titleId: string, summary: string) {
  const geometry = chartGeometry(month, days, { width, height: HEIGHT });
  const { plot } = geometry;
  const chart = svg('svg', {
    class: 'chart',
    width,
    height: HEIGHT,
    viewBox: `0 0 ${width} ${HEIGHT}`,
    role: 'img',
    'aria-labelledby': titleId,
    focusable: 'false',
  });
  chart.append(svg('title', { id: titleId }, summary));
  for (const tick of geometry.ticks) {
    chart.append(
      svg('line', { class: 'grid', x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
      svg('text', { class: 'tick', x: plot.left - 6, y: tick.y, 'text-anchor': 'end', dy: '0.32em' }, tick.label),
    );
  }
  for (const slot of geometry.slots) {
    const group = svg('g', { class: slot.usage ? 'day' : 'day future' });
    if (slot.usage) group.append(svg('title', null, barTitle(slot.usage, geometry.hasRefused)));
    if (slot.requests) group.append(svg('rect', { class: 'bar-requests', ...slot.requests }));
    if (slot.refused) group.append(svg('rect', { class: 'bar-refused', ...slot.refused }));
    if (slot.labelled) {
      group.append(
        svg('text', { class: 'day-label', x: slot.labelX, y: plot.bottom + 15, 'text-anchor': 'middle' }, slot.day),
      );
    }
    chart.append(group);
  }
  chart.append(svg('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }));
  return chart;
}

function figuresTable(month: string, days: readonly DayUsage[], hasRefused: boolean): HTMLDetailsElement {
  const rows = days.map((usage) =>
    h(
      'tr',
      null,
      h('th', { scope: 'row' }, formatDate(usage.date)),
      h('td', { class: 'num' }, formatCount(usage.requests)),
      hasRefused ? h('td', { class: 'num' }, formatCount(usage.refused)) : null,
    ),
  );
  return h(
    'details',
    { class: 'figures' },
    h('summary', null, 'Show the daily figures as a table'),
    h(
      'table',
      null,
      h('caption', null, `Requests per day, ${formatMonth(month)}`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'Day'),
          h('th', { scope: 'col', class: 'num' }, 'Requests'),
          hasRefused ? h('th', { scope: 'col', class: 'num' }, 'Refused') : null,
        ),
      ),
      h('tbody', null, ...rows),
    ),
  );
}

/**
 * The chart redraws to its container's width rather than scaling one drawing, so its labels keep a readable size
 * on a phone. `note` follows the legend, for what the figures mean. Returns the section and a function that stops
 * watching the width.
 */
export function usageChart(
  month: string,
  days: readonly DayUsage[],
  note: HTMLElement | null = null,
): { section: HTMLElement; stop: () => void } {
  const summary = chartSummary(month, days);
  const titleId = uid('chart-title');
  const frame = h('div', { class: 'chart-frame' });
  const hasRefused = days.some((usage) => usage.refused > 0);
  let drawnWidth = 0;
  const draw = () => {
    const width = Math.max(MIN_WIDTH, Math.floor(frame.clientWidth));
    if (width === drawnWidth) return;
    drawnWidth = width;
    frame.replaceChildren(drawChart(month, days, width, titleId, summary));
  };
  const legend = h(
    'ul',
    { class: 'legend', 'aria-hidden': 'true' },
    h('li', null, h('span', { class: 'swatch swatch-requests' }), 'Requests'),
    hasRefused ? h('li', null, h('span', { class: 'swatch swatch-refused' }), 'Refused') : null,
  );
  const section = h(
    'section',
    { class: 'card wide', 'aria-labelledby': `${titleId}-heading` },
    h('h2', { id: `${titleId}-heading` }, `Requests per day, ${formatMonth(month)}`),
    h('p', { class: 'summary' }, summary),
    frame,
    legend,
    note,
    figuresTable(month, days, hasRefused),
  );
  let pending = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(draw);
  });
  observer.observe(frame);
  return {
    section,
    stop: () => {
      observer.disconnect();
      cancelAnimationFrame(pending);
    },
  };
}
