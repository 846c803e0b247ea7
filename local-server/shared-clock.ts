import type { Clock } from '../lambdas/core/domain/dates';

/**
 * An injected clock's current reading, shared with the service's other threads. The local server writes it
 * before each call that reads the time on another thread, so a test that sets its clock sees every thread agree.
 */
export class SharedClock {
  readonly buffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  private readonly cell = new BigInt64Array(this.buffer);

  constructor(private readonly source: Clock) {
    this.sync();
  }

  /** Publishes the source clock's current time to the other threads. */
  sync(): void {
    Atomics.store(this.cell, 0, BigInt(this.source().getTime()));
  }
}

/** The clock of a thread that reads a `SharedClock`'s buffer. */
export function sharedClockReader(buffer: SharedArrayBuffer): Clock {
  const cell = new BigInt64Array(buffer);
  return () => new Date(Number(Atomics.load(cell, 0)));
}
