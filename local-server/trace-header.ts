/**
 * The X-Ray tracing header of one invocation, which Lambda puts in `_X_AMZN_TRACE_ID` and generates itself when the
 * caller sent none: `Root=1-<seconds since the epoch, 8 hex digits>-<96 random bits>;Parent=<64 random bits>;Sampled=`.
 * https://docs.aws.amazon.com/xray/latest/devguide/xray-concepts.html#xray-concepts-tracingheader
 */

export interface TraceRandomness {
  /** Milliseconds since the epoch. */
  now(): number;
  randomBytes(size: number): Uint8Array;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Unsampled by default: locally no daemon is expected, and the X-Ray SDK then records nothing and sends nothing,
 * while it still finds the trace data it would otherwise log as missing on every call.
 */
export function newTraceHeader(source: TraceRandomness, sampled = false): string {
  const seconds = Math.floor(source.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  const root = `1-${seconds}-${hex(source.randomBytes(12))}`;
  return `Root=${root};Parent=${hex(source.randomBytes(8))};Sampled=${sampled ? 1 : 0}`;
}
