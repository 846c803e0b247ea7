/** The value at percentile `p` (0–100) of samples sorted in ascending order; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The median of unsorted samples: the mean of the two middle ones when their count is even; NaN when there are none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const low = sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
  const high = sorted[Math.ceil((sorted.length - 1) / 2)] ?? Number.NaN;
  return (low + high) / 2;
}

/**
 * A 95 % confidence interval for the median of unsorted samples, assuming nothing of their distribution: the order
 * statistics whose ranks lie 1.96 standard deviations of a Binomial(n, ½) either side of n/2 (for 61 samples, the
 * 23rd and the 39th of 61). NaN for both bounds when there are no samples.
 */
export function medianInterval(values: readonly number[]): [low: number, high: number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const spread = (1.96 * Math.sqrt(n)) / 2;
  const lowRank = Math.max(1, Math.round(n / 2 - spread));
  const highRank = Math.min(n, Math.round(1 + n / 2 + spread));
  return [sorted[lowRank - 1] ?? Number.NaN, sorted[highRank - 1] ?? Number.NaN];
}
