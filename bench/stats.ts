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
