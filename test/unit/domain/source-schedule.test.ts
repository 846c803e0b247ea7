import fc from 'fast-check';
import { addDays, dayStartMs, ecbPublishedAt, formatTimestamp } from '../../../lambdas/core/domain/dates';
import { CENTRAL_BANK_IDS, PUBLISHERS } from '../../../lambdas/core/domain/publishers';
import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { SOURCE_FACTS } from '../../../lambdas/core/domain/source-facts';
import {
  berlinOffsetHours,
  easterSunday,
  isTargetClosed,
  nextCurrencyApiPublication,
  nextEcbPublication,
  nextUpdateAt,
} from '../../../lambdas/core/domain/source-schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : formatTimestamp(ms));

describe('easterSunday', () => {
  it('finds Easter Sunday of known years, the earliest and latest possible dates included', () => {
    const known: [number, [number, number]][] = [
      [1999, [4, 4]],
      [2000, [4, 23]],
      [2008, [3, 23]],
      [2011, [4, 24]],
      [2019, [4, 21]],
      [2024, [3, 31]],
      [2025, [4, 20]],
      [2026, [4, 5]],
      [2027, [3, 28]],
      [2038, [4, 25]],
      [2285, [3, 22]],
    ];
    for (const [year, date] of known) expect([year, easterSunday(year)]).toEqual([year, date]);
  });

  it('always falls on a Sunday between 22 March and 25 April (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1583, max: 4099 }), (year) => {
        const [month, day] = easterSunday(year);
        const date = new Date(0);
        date.setUTCFullYear(year, month - 1, day);
        expect(date.getUTCDay()).toBe(0);
        expect(month * 100 + day).toBeGreaterThanOrEqual(322);
        expect(month * 100 + day).toBeLessThanOrEqual(425);
      }),
    );
  });
});

describe('isTargetClosed', () => {
  const closed = (day: string) => isTargetClosed(dayStartMs(day));

  it('closes on weekends, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December', () => {
    for (const day of [
      '2026-11-21', // Saturday
      '2026-11-22', // Sunday
      '2027-01-01',
      '2026-04-03', // Good Friday
      '2026-04-06', // Easter Monday
      '2025-04-18',
      '2025-04-21',
      '2024-03-29',
      '2024-04-01',
      '2026-05-01',
      '2025-12-25',
      '2025-12-26',
      '2000-04-21',
      '2000-04-24',
    ]) {
      expect([day, closed(day)]).toEqual([day, true]);
    }
  });

  it('opens on other weekdays, Maundy Thursday, 24 and 31 December and Ascension included', () => {
    for (const day of ['2026-11-23', '2026-04-02', '2026-04-07', '2026-12-24', '2026-12-31', '2026-05-14']) {
      expect([day, closed(day)]).toEqual([day, false]);
    }
  });
});

describe('berlinOffsetHours', () => {
  it('switches at 01:00 UTC on the last Sundays of March and October', () => {
    expect(berlinOffsetHours(at('2026-03-29T00:59:59Z'))).toBe(1);
    expect(berlinOffsetHours(at('2026-03-29T01:00:00Z'))).toBe(2);
    expect(berlinOffsetHours(at('2026-10-25T00:59:59Z'))).toBe(2);
    expect(berlinOffsetHours(at('2026-10-25T01:00:00Z'))).toBe(1);
    expect(berlinOffsetHours(at('2025-03-30T01:00:00Z'))).toBe(2);
    expect(berlinOffsetHours(at('2025-10-26T00:30:00Z'))).toBe(2);
  });

  it("agrees with the time-zone database's Europe/Berlin at any instant since 1999 (property)", () => {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      timeZoneName: 'shortOffset',
    });
    fc.assert(
      fc.property(fc.integer({ min: at('1999-01-01T00:00:00Z'), max: at('2037-12-31T00:00:00Z') }), (ms) => {
        const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value;
        expect(`GMT+${berlinOffsetHours(ms)}`).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('nextEcbPublication', () => {
  const next = (now: string) => iso(nextEcbPublication(at(now)));

  it('is 16:00 Berlin time of the same business day before it, of the next business day after it', () => {
    expect(next('2026-11-23T10:00:00Z')).toBe('2026-11-23T15:00:00Z');
    expect(next('2026-11-23T14:59:59Z')).toBe('2026-11-23T15:00:00Z');
    // Strictly after now: at the publication instant the next one is the following day's.
    expect(next('2026-11-23T15:00:00Z')).toBe('2026-11-24T15:00:00Z');
    expect(next('2026-07-01T13:59:59Z')).toBe('2026-07-01T14:00:00Z');
    expect(next('2026-07-01T14:00:00Z')).toBe('2026-07-02T14:00:00Z');
  });

  it('skips the weekend', () => {
    expect(next('2026-11-27T16:00:00Z')).toBe('2026-11-30T15:00:00Z');
    expect(next('2026-11-28T12:00:00Z')).toBe('2026-11-30T15:00:00Z');
    expect(next('2026-11-29T23:59:59Z')).toBe('2026-11-30T15:00:00Z');
  });

  it('skips Good Friday to Easter Monday', () => {
    expect(next('2026-04-02T14:00:00Z')).toBe('2026-04-07T14:00:00Z');
    expect(next('2026-04-03T09:00:00Z')).toBe('2026-04-07T14:00:00Z');
    expect(next('2025-04-17T15:00:00Z')).toBe('2025-04-22T14:00:00Z');
  });

  it('skips 1 May, Christmas and 26 December, and 1 January', () => {
    expect(next('2026-04-30T15:00:00Z')).toBe('2026-05-04T14:00:00Z');
    expect(next('2025-04-30T14:00:00Z')).toBe('2025-05-02T14:00:00Z');
    expect(next('2026-12-24T15:00:00Z')).toBe('2026-12-28T15:00:00Z');
    expect(next('2025-12-24T15:00:00Z')).toBe('2025-12-29T15:00:00Z');
    expect(next('2026-12-31T16:00:00Z')).toBe('2027-01-04T15:00:00Z');
    expect(next('2025-12-31T16:00:00Z')).toBe('2026-01-02T15:00:00Z');
  });

  it('follows the summer-time switches: 15:00 UTC in winter, 14:00 UTC in summer', () => {
    // Summer time starts on Sunday 2026-03-29 and ends on Sunday 2026-10-25.
    expect(next('2026-03-27T15:00:00Z')).toBe('2026-03-30T14:00:00Z');
    expect(next('2026-03-29T01:30:00Z')).toBe('2026-03-30T14:00:00Z');
    expect(next('2026-10-23T14:00:00Z')).toBe('2026-10-26T15:00:00Z');
    expect(next('2026-10-25T00:30:00Z')).toBe('2026-10-26T15:00:00Z');
  });

  it('lands on the publication time ecbPublishedAt gives the same day, for every business day 1999-2030', () => {
    for (let day = '1999-01-01'; day < '2031-01-01'; day = addDays(day, 1)) {
      if (isTargetClosed(dayStartMs(day))) continue;
      expect([day, iso(nextEcbPublication(dayStartMs(day)))]).toEqual([day, ecbPublishedAt(day)]);
    }
  });
});

describe('nextCurrencyApiPublication', () => {
  it('is the next 00:00 UTC, strictly after now', () => {
    expect(iso(nextCurrencyApiPublication(at('2026-11-23T23:59:59Z')))).toBe('2026-11-24T00:00:00Z');
    expect(iso(nextCurrencyApiPublication(at('2026-11-23T00:00:00Z')))).toBe('2026-11-24T00:00:00Z');
    expect(iso(nextCurrencyApiPublication(at('2026-12-31T12:00:00Z')))).toBe('2027-01-01T00:00:00Z');
  });
});

describe('nextUpdateAt', () => {
  const both = ['ecb', 'currency-api'] as const;

  it('is the earliest next publication among the sources feeding the latest rates', () => {
    expect(iso(nextUpdateAt(both, at('2026-11-23T10:00:00Z')))).toBe('2026-11-23T15:00:00Z');
    expect(iso(nextUpdateAt(both, at('2026-11-23T15:00:00Z')))).toBe('2026-11-24T00:00:00Z');
    expect(iso(nextUpdateAt(both, at('2026-11-28T10:00:00Z')))).toBe('2026-11-29T00:00:00Z');
  });

  it('waits for the next business day when only the ECB feeds them', () => {
    expect(iso(nextUpdateAt(['ecb'], at('2026-11-27T16:00:00Z')))).toBe('2026-11-30T15:00:00Z');
    expect(iso(nextUpdateAt(['currency-api'], at('2026-11-27T16:00:00Z')))).toBe('2026-11-28T00:00:00Z');
  });

  it('is undefined without a source', () => {
    expect(nextUpdateAt([], at('2026-11-27T16:00:00Z'))).toBeUndefined();
  });
});

describe('SOURCE_FACTS', () => {
  it('gives every central bank its publisher facts, and the ECB and currency-api none of a country', () => {
    for (const id of CENTRAL_BANK_IDS) {
      const { country, rateKind, currency, dataUrl, termsUrl } = PUBLISHERS[id];
      expect([id, SOURCE_FACTS[id]]).toEqual([id, { country, rateKind, currency, dataUrl, termsUrl }]);
    }
    expect(SOURCE_FACTS.ecb).toMatchObject({ country: null, currency: 'EUR' });
    expect(SOURCE_FACTS['currency-api']).toMatchObject({ country: null, currency: 'EUR', termsUrl: null });
  });

  it('names only HTTPS pages and ISO alpha-2 countries', () => {
    for (const id of SOURCE_IDS) {
      const facts = SOURCE_FACTS[id];
      expect([id, new URL(facts.dataUrl).protocol]).toEqual([id, 'https:']);
      if (facts.termsUrl !== null) expect([id, new URL(facts.termsUrl).protocol]).toEqual([id, 'https:']);
      if (facts.country !== null) expect([id, facts.country]).toEqual([id, expect.stringMatching(/^[A-Z]{2}$/)]);
    }
  });
});
