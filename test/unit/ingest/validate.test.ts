import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import {
  checkSnapshot,
  isJump,
  MAJORS,
  MAX_DAILY_MOVE,
  relativeMove,
  SOURCE_AGREEMENT,
  sourcesAgree,
} from '../../../lambdas/core/ingest/validate';
import { MAJORS as FIXTURE_MAJORS } from './fixtures';

const snapshot = (rates: Record<string, number>): RateSnapshot => ({
  date: '2026-09-28',
  rates: { EUR: 1, ...FIXTURE_MAJORS, ...rates },
  sources: {},
  publishedAt: '2026-09-28T00:00:00Z',
});

describe('the jump rule', () => {
  it(`treats a move of exactly ${MAX_DAILY_MOVE * 100} % as plausible and anything beyond as a jump`, () => {
    expect(isJump(100, 100 * (1 + MAX_DAILY_MOVE))).toBe(false);
    expect(isJump(100, 100 * (1 - MAX_DAILY_MOVE))).toBe(false);
    expect(isJump(100, 125.01)).toBe(true);
    expect(isJump(100, 74.99)).toBe(true);
    expect(relativeMove(2, 3)).toBeCloseTo(0.5, 12);
  });

  it(`counts sources as agreeing within ${SOURCE_AGREEMENT * 100} % and needs at least two`, () => {
    expect(sourcesAgree([1.0, 1.0 + SOURCE_AGREEMENT])).toBe(true);
    expect(sourcesAgree([1.0, 1.021])).toBe(false);
    expect(sourcesAgree([1.021, 1.0])).toBe(false);
    expect(sourcesAgree([1.0])).toBe(false);
    expect(sourcesAgree([])).toBe(false);
  });
});

describe('checkSnapshot', () => {
  it('accepts a snapshot with positive rates and every major', () => {
    expect(checkSnapshot(snapshot({ AED: 4.04 }))).toBeUndefined();
  });

  it('rejects a snapshot missing a major', () => {
    for (const major of MAJORS) {
      const s = snapshot({});
      delete s.rates[major];
      expect(checkSnapshot(s)).toMatchObject({ reason: 'missing-majors', detail: `missing ${major}` });
    }
  });

  it('rejects zero, negative and non-finite rates', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(checkSnapshot(snapshot({ AED: bad }))).toMatchObject({ reason: 'invalid-rate', code: 'AED' });
    }
  });

  it('rejects EUR quoted as anything but 1', () => {
    expect(checkSnapshot(snapshot({ EUR: 1.01 }))).toMatchObject({ reason: 'invalid-rate', code: 'EUR' });
  });
});
