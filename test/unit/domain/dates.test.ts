import fc from 'fast-check';
import {
  addDays,
  currencyApiPublishedAt,
  daysBetween,
  ecbPublishedAt,
  formatDay,
  formatTimestamp,
  isValidDay,
  oneYearBefore,
  parseDay,
} from '../../../lambdas/core/domain/dates';

describe('formatDay', () => {
  const DAY = 86_400_000;

  it("formats each call's own day when consecutive calls cross midnight, either way", () => {
    const midnight = Date.UTC(2026, 0, 1);
    expect(formatDay(midnight - 1)).toBe('2025-12-31');
    expect(formatDay(midnight)).toBe('2026-01-01');
    expect(formatDay(new Date(midnight + DAY - 1))).toBe('2026-01-01');
    expect(formatDay(midnight + DAY)).toBe('2026-01-02');
    expect(formatDay(midnight - 1)).toBe('2025-12-31');
  });

  it('formats days before 1970, whose times are negative', () => {
    expect(formatDay(-1)).toBe('1969-12-31');
    expect(formatDay(-DAY)).toBe('1969-12-31');
    expect(formatDay(-DAY - 1)).toBe('1969-12-30');
    expect(formatDay(0)).toBe('1970-01-01');
  });

  it('agrees with the ISO form of any time, whatever came before', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2e12, max: 4e12 }), { minLength: 1, maxLength: 20 }), (times) => {
        for (const at of times) expect(formatDay(at)).toBe(new Date(at).toISOString().slice(0, 10));
      }),
    );
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => formatDay(Number.NaN)).toThrow(RangeError);
    expect(() => formatDay(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('parseDay', () => {
  it('parses a real calendar day into its parts', () => {
    expect(parseDay('2026-11-22')).toEqual({ year: 2026, month: 11, day: 22 });
    expect(parseDay('1999-01-04')).toEqual({ year: 1999, month: 1, day: 4 });
  });

  it('refuses days that do not exist', () => {
    for (const text of [
      '2023-02-30',
      '2023-02-29',
      '2023-13-01',
      '2023-00-10',
      '2023-04-31',
      '2023-01-00',
      '2023-01-32',
    ]) {
      expect([text, parseDay(text)]).toEqual([text, undefined]);
    }
  });

  it('knows the leap years: 2024-02-29 and 2000-02-29 exist, 2100-02-29 and 1900-02-29 do not', () => {
    expect(parseDay('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDay('2000-02-29')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseDay('2100-02-29')).toBeUndefined();
    expect(parseDay('1900-02-29')).toBeUndefined();
  });

  it('refuses anything but YYYY-MM-DD', () => {
    for (const text of [
      '2023-1-05',
      '23-01-05',
      '2023/01/05',
      '2023-01-05T00:00:00Z',
      ' 2023-01-05',
      '2023-01-05 ',
      '20230105',
      '',
      '２０２３-01-05',
    ]) {
      expect([text, isValidDay(text)]).toEqual([text, false]);
    }
  });

  it('accepts exactly the days Date.UTC round-trips (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const at = new Date(Date.UTC(y, m - 1, d));
          const real = m >= 1 && m <= 12 && d >= 1 && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
          expect(isValidDay(text)).toBe(real);
        },
      ),
    );
  });
});

describe('oneYearBefore', () => {
  it('keeps month and day', () => {
    expect(oneYearBefore('2026-11-22')).toBe('2025-11-22');
    expect(oneYearBefore('2026-01-01')).toBe('2025-01-01');
    expect(oneYearBefore('2026-12-31')).toBe('2025-12-31');
  });

  it('maps 29 February to 28 February', () => {
    expect(oneYearBefore('2028-02-29')).toBe('2027-02-28');
    expect(oneYearBefore('2024-02-29')).toBe('2023-02-28');
  });

  it('maps the days next to a leap day to the same month and day', () => {
    expect(oneYearBefore('2029-03-01')).toBe('2028-03-01');
    expect(oneYearBefore('2025-02-28')).toBe('2024-02-28');
  });

  it('pads years below 1000 to four digits', () => {
    expect(oneYearBefore('1000-06-15')).toBe('0999-06-15');
  });

  it('refuses a day that does not exist', () => {
    expect(() => oneYearBefore('2023-02-30')).toThrow(RangeError);
  });

  it('is always a valid day 365 or 366 days earlier (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1901-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }), (at) => {
        const day = formatDay(at);
        const before = oneYearBefore(day);
        expect(isValidDay(before)).toBe(true);
        expect([365, 366]).toContain(daysBetween(before, day));
      }),
    );
  });
});

describe('addDays and daysBetween', () => {
  it('crosses month, year and leap-day boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2025-01-01', '2024-01-01')).toBe(-366);
  });

  it('are inverse to each other (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1999-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.integer({ min: -5000, max: 5000 }),
        (at, n) => {
          const day = formatDay(at);
          expect(daysBetween(day, addDays(day, n))).toBe(n);
        },
      ),
    );
  });
});

describe('ecbPublishedAt', () => {
  it('is 16:00 Berlin: 15:00Z in winter (CET)', () => {
    expect(ecbPublishedAt('1999-01-04')).toBe('1999-01-04T15:00:00Z');
    expect(ecbPublishedAt('2026-01-15')).toBe('2026-01-15T15:00:00Z');
    expect(ecbPublishedAt('2025-12-31')).toBe('2025-12-31T15:00:00Z');
  });

  it('is 16:00 Berlin: 14:00Z in summer (CEST)', () => {
    expect(ecbPublishedAt('2026-07-01')).toBe('2026-07-01T14:00:00Z');
    expect(ecbPublishedAt('2025-08-15')).toBe('2025-08-15T14:00:00Z');
  });

  it('uses summer time on the last Sunday of March, from that day on', () => {
    // 2026: clocks go forward on Sunday 29 March at 01:00 UTC.
    expect(ecbPublishedAt('2026-03-28')).toBe('2026-03-28T15:00:00Z');
    expect(ecbPublishedAt('2026-03-29')).toBe('2026-03-29T14:00:00Z');
    expect(ecbPublishedAt('2026-03-30')).toBe('2026-03-30T14:00:00Z');
    // 2024: Sunday 31 March.
    expect(ecbPublishedAt('2024-03-30')).toBe('2024-03-30T15:00:00Z');
    expect(ecbPublishedAt('2024-03-31')).toBe('2024-03-31T14:00:00Z');
  });

  it('uses winter time on the last Sunday of October, from that day on', () => {
    // 2026: clocks go back on Sunday 25 October at 01:00 UTC.
    expect(ecbPublishedAt('2026-10-24')).toBe('2026-10-24T14:00:00Z');
    expect(ecbPublishedAt('2026-10-25')).toBe('2026-10-25T15:00:00Z');
    expect(ecbPublishedAt('2026-10-26')).toBe('2026-10-26T15:00:00Z');
    // 2025: Sunday 26 October.
    expect(ecbPublishedAt('2025-10-25')).toBe('2025-10-25T14:00:00Z');
    expect(ecbPublishedAt('2025-10-26')).toBe('2025-10-26T15:00:00Z');
  });

  it('is 16:00 wall-clock time in Berlin on every day (property)', () => {
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    fc.assert(
      fc.property(fc.date({ min: new Date('1999-01-01'), max: new Date('2060-12-31'), noInvalidDate: true }), (at) => {
        const day = formatDay(at);
        const [y, m, d] = day.split('-');
        expect(berlin.format(Date.parse(ecbPublishedAt(day)))).toBe(`${d}/${m}/${y}, 16:00`);
      }),
    );
  });
});

describe('currencyApiPublishedAt', () => {
  it('is midnight UTC of the day', () => {
    expect(currencyApiPublishedAt('2026-09-01')).toBe('2026-09-01T00:00:00Z');
    expect(currencyApiPublishedAt('2024-02-29')).toBe('2024-02-29T00:00:00Z');
  });

  it('refuses a day that does not exist', () => {
    expect(() => currencyApiPublishedAt('2026-02-30')).toThrow(RangeError);
  });
});

describe('formatTimestamp', () => {
  it('writes YYYY-MM-DDTHH:MM:SSZ without milliseconds', () => {
    expect(formatTimestamp(new Date('2026-09-15T10:20:19.987Z'))).toBe('2026-09-15T10:20:19Z');
    expect(formatTimestamp(Date.UTC(2026, 0, 1))).toBe('2026-01-01T00:00:00Z');
  });

  it('always matches the API timestamp format and truncates to the second (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (at) => {
        const text = formatTimestamp(at);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(text)).toBe(Math.floor(at.getTime() / 1000) * 1000);
      }),
    );
  });
});

describe('parseDay in the first century', () => {
  it('accepts real days of the years 0000 to 0099', () => {
    expect(parseDay('0050-01-01')).toEqual({ year: 50, month: 1, day: 1 });
    expect(isValidDay('0004-02-29')).toBe(true);
    expect(isValidDay('0001-02-29')).toBe(false);
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
  });
});
