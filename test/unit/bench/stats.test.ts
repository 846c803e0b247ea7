import { median, medianInterval, percentile } from '../../../bench/stats';

describe('the bench statistics', () => {
  it('takes the middle sample as the median, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('bounds the median of 61 samples by the 23rd and 39th of them, in whatever order they come', () => {
    const ranks = Array.from({ length: 61 }, (_, i) => i + 1);
    const shuffled = [...ranks].sort((a, b) => ((a * 37) % 61) - ((b * 37) % 61));
    expect(medianInterval(shuffled)).toEqual([23, 39]);
  });

  it('widens the interval to every sample when there are too few to narrow it, and is NaN without any', () => {
    expect(medianInterval([5, 1, 3])).toEqual([1, 5]);
    expect(medianInterval([7])).toEqual([7, 7]);
    expect(medianInterval([])).toEqual([Number.NaN, Number.NaN]);
  });

  it('holds the true median of a skewed distribution in about 95 % of repeated draws', () => {
    // Deterministic draws from an exponential distribution (median ln 2), 2,000 experiments of 61 samples each.
    let state = 0x9e3779b9;
    const uniform = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return ((state >>> 0) + 0.5) / 2 ** 32;
    };
    let covered = 0;
    for (let experiment = 0; experiment < 2000; experiment++) {
      const samples = Array.from({ length: 61 }, () => -Math.log(uniform()));
      const [low, high] = medianInterval(samples);
      if (low <= Math.LN2 && Math.LN2 <= high) covered++;
    }
    expect(covered / 2000).toBeGreaterThan(0.93);
    expect(covered / 2000).toBeLessThan(0.98);
  });

  it('reads a percentile off sorted samples, the last one at 100', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4], 100)).toBe(4);
  });
});
