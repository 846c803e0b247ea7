/**
 * The dashboard's key-creation limit over a rolling window, because clock hours let twice the limit through across
 * an hour's edge. Pure: the accounts store supplies the instants.
 */

/** At most `max` keys created per `windowMs` for one account (the dashboard's limit; the admin CLI has none). */
export interface KeyCreationLimit {
  max: number;
  windowMs: number;
}

/** Undefined when it admits one at `now`; a creation at `t` leaves the window at exactly `t + windowMs`. */
export function nextKeyCreationAt(
  createdAt: readonly number[],
  limit: KeyCreationLimit,
  now: number,
): number | undefined {
  const inWindow = createdAt.filter((at) => at + limit.windowMs > now).sort((a, b) => a - b);
  if (inWindow.length < limit.max) return undefined;
  // The window has room again once all but max - 1 of its creations have left it.
  const leaving = inWindow[inWindow.length - limit.max];
  return leaving === undefined ? undefined : leaving + limit.windowMs;
}

/** Whole seconds from `now` until `at`, at least 1: waiting that long always reaches it. */
export function secondsUntilInstant(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
