import { nextKeyCreationAt, secondsUntilInstant } from '../../../lambdas/core/domain/key-creation';

describe('the rolling key-creation window', () => {
  const limit = { max: 3, windowMs: 60_000 };

  it('admits a key while fewer than the limit were created within the window', () => {
    expect(nextKeyCreationAt([], limit, 0)).toBeUndefined();
    expect(nextKeyCreationAt([1_000, 2_000], limit, 3_000)).toBeUndefined();
  });

  it('names the moment the oldest creation of a full window leaves it', () => {
    expect(nextKeyCreationAt([1_000, 2_000, 3_000], limit, 3_000)).toBe(61_000);
    expect(nextKeyCreationAt([1_000, 2_000, 3_000], limit, 60_999)).toBe(61_000);
  });

  it('admits exactly when the oldest creation leaves the window', () => {
    expect(nextKeyCreationAt([1_000, 2_000, 3_000], limit, 61_000)).toBeUndefined();
  });

  it('ignores creations that have left the window and the order the times were written in', () => {
    expect(nextKeyCreationAt([3_000, 90_000, 1_000, 95_000, 2_000], limit, 100_000)).toBeUndefined();
    expect(nextKeyCreationAt([95_000, 1_000, 90_000, 97_000], limit, 100_000)).toBe(150_000);
  });

  it('waits for enough creations to leave when more than the limit are in the window', () => {
    // After the limit was lowered, say: four in the window and room for three means two must leave.
    expect(nextKeyCreationAt([10_000, 20_000, 30_000, 40_000], limit, 45_000)).toBe(80_000);
  });

  it('rounds a wait up to whole seconds, and to at least one', () => {
    expect(secondsUntilInstant(61_000, 1_000)).toBe(60);
    expect(secondsUntilInstant(61_000, 60_999)).toBe(1);
    expect(secondsUntilInstant(61_000, 61_000)).toBe(1);
  });
});
