import { axisTicks, chartGeometry, chartSummary, labelEvery, niceStep } from '../../../web/src/chart';
import type { DayUsage } from '../../../web/src/types';

const day = (n: number, requests: number, refused = 0): DayUsage => ({
  date: `2026-11-${String(n).padStart(2, '0')}`,
  requests,
  refused,
});

describe('the y axis', () => {
  it('steps by 1, 2 or 5 times a power of ten, never below 1', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(0.3)).toBe(1);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(13)).toBe(20);
    expect(niceStep(20)).toBe(20);
    expect(niceStep(51)).toBe(100);
    expect(niceStep(7200)).toBe(10000);
  });

  it('ends on a round number at or above the highest day', () => {
    expect(axisTicks(105)).toEqual({ max: 150, values: [0, 50, 100, 150] });
    expect(axisTicks(40)).toEqual({ max: 40, values: [0, 10, 20, 30, 40] });
    expect(axisTicks(0)).toEqual({ max: 1, values: [0, 1] });
  });

  it('labels fewer days as the bars get narrower', () => {
    expect(labelEvery(30)).toBe(1);
    expect(labelEvery(12)).toBe(2);
    expect(labelEvery(8)).toBe(5);
    expect(labelEvery(3)).toBe(10);
  });
});

describe('the chart geometry', () => {
  const box = { width: 640, height: 220 };

  it('has one slot per day of the month, the days to come without bars', () => {
    const geometry = chartGeometry('2026-11', [day(1, 10), day(2, 20), day(3, 0)], box);
    expect(geometry.slots).toHaveLength(30);
    expect(geometry.slots.map((slot) => slot.day)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(geometry.slots[2]?.usage).toEqual(day(3, 0));
    expect(geometry.slots[2]?.requests).toBeNull();
    expect(geometry.slots[3]?.usage).toBeNull();
    expect(geometry.slots[29]?.requests).toBeNull();
  });

  it('draws bar heights in proportion to the requests, from the baseline', () => {
    const geometry = chartGeometry('2026-11', [day(1, 10), day(2, 20)], box);
    const first = geometry.slots[0]?.requests;
    const second = geometry.slots[1]?.requests;
    expect(first && second).toBeTruthy();
    if (!first || !second) return;
    expect(second.height / first.height).toBeCloseTo(2, 1);
    expect(first.y + first.height).toBeCloseTo(geometry.plot.bottom, 1);
    expect(second.y + second.height).toBeCloseTo(geometry.plot.bottom, 1);
    expect(second.x).toBeGreaterThan(first.x + first.width);
  });

  it('stacks refused requests on top of the admitted ones, only where there are any', () => {
    const geometry = chartGeometry('2026-11', [day(1, 30, 10), day(2, 40, 0)], box);
    expect(geometry.hasRefused).toBe(true);
    const requests = geometry.slots[0]?.requests;
    const refused = geometry.slots[0]?.refused;
    if (!requests || !refused) throw new Error('expected both bars on day 1');
    expect(refused.y + refused.height).toBeCloseTo(requests.y, 1);
    expect(refused.height / requests.height).toBeCloseTo(1 / 3, 1);
    expect(geometry.slots[1]?.refused).toBeNull();
  });

  it('says there is no refused series when nothing was refused', () => {
    expect(chartGeometry('2026-11', [day(1, 5)], box).hasRefused).toBe(false);
  });

  it('keeps every bar and tick inside the box, at a phone width too', () => {
    const days = Array.from({ length: 31 }, (_, i) => ({
      date: `2026-12-${String(i + 1).padStart(2, '0')}`,
      requests: 1000 * i,
      refused: i,
    }));
    for (const width of [280, 343, 1000]) {
      const geometry = chartGeometry('2026-12', days, { width, height: 220 });
      expect(geometry.slots).toHaveLength(31);
      for (const slot of geometry.slots) {
        for (const rect of [slot.requests, slot.refused]) {
          if (!rect) continue;
          expect(rect.x).toBeGreaterThanOrEqual(geometry.plot.left);
          expect(rect.x + rect.width).toBeLessThanOrEqual(width);
          expect(rect.y).toBeGreaterThanOrEqual(geometry.plot.top - 0.1);
          expect(rect.height).toBeGreaterThanOrEqual(0);
        }
      }
      const top = geometry.ticks.at(-1);
      expect(top?.value).toBeGreaterThanOrEqual(30 * 1000 + 30);
      expect(top?.y).toBeCloseTo(geometry.plot.top, 1);
    }
  });

  it('labels day 1 and every n-th day, fewer on a phone than on a desktop', () => {
    const labelled = (width: number) =>
      chartGeometry('2026-11', [day(1, 1)], { width, height: 220 })
        .slots.filter((slot) => slot.labelled)
        .map((slot) => slot.day);
    expect(labelled(1200)).toHaveLength(30);
    expect(labelled(300)).toEqual([1, 5, 10, 15, 20, 25, 30]);
  });
});

describe("the chart's text alternative", () => {
  it('gives the total, the busiest day and the refusals', () => {
    expect(chartSummary('2026-11', [day(1, 12), day(2, 1200, 3), day(3, 7)])).toBe(
      '1,219 requests in November 2026, the most on 2 Nov 2026 (1,200), 3 refused.',
    );
  });

  it('leaves out refusals when there were none', () => {
    expect(chartSummary('2026-11', [day(1, 1)])).toBe('1 request in November 2026, the most on 1 Nov 2026 (1).');
  });

  it('says so when the month has no requests yet', () => {
    expect(chartSummary('2026-11', [day(1, 0)])).toBe('No requests yet in November 2026.');
    expect(chartSummary('2026-11', [])).toBe('No requests yet in November 2026.');
  });

  it('does not name a busiest day when every request was refused', () => {
    expect(chartSummary('2026-11', [day(1, 0, 4)])).toBe('0 requests in November 2026, 4 refused.');
  });
});
