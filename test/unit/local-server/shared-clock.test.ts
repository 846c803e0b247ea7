import { SharedClock, sharedClockReader } from '../../../local-server/shared-clock';

describe('a clock shared with other threads', () => {
  it('reads the source time as of the last sync, to the millisecond', () => {
    let now = Date.parse('2026-10-31T23:59:59.999Z');
    const shared = new SharedClock(() => new Date(now));
    const reader = sharedClockReader(shared.buffer);
    expect(reader().toISOString()).toBe('2026-10-31T23:59:59.999Z');

    now += 1;
    expect(reader().toISOString()).toBe('2026-10-31T23:59:59.999Z');
    shared.sync();
    expect(reader().toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('keeps the time in a SharedArrayBuffer, which a worker thread receives by reference', () => {
    const shared = new SharedClock(() => new Date('2024-02-29T12:00:00Z'));
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(sharedClockReader(shared.buffer)().getTime()).toBe(Date.parse('2024-02-29T12:00:00Z'));
  });
});
