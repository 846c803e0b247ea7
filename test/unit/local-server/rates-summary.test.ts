import type { LocalLoadResult } from '../../../local-server/load-rates';
import { loadWarning, ratesSummary } from '../../../local-server/rates-summary';

const coverage = {
  ecb: { first: '1999-01-04', last: '2026-04-13', days: 6983 },
  currencyApi: { first: '2026-09-01', last: '2026-09-29', days: 29 },
};

function result(overrides: Partial<LocalLoadResult> = {}): LocalLoadResult {
  return {
    used: 'bundled',
    bundled: { loaded: true, daysWritten: 7012, rejections: 0, coverage },
    itemsWritten: 7013,
    latest: { date: '2026-09-29', publishedAt: '2026-09-29T00:00:00Z', currencies: 158 },
    durationMs: 1,
    ...overrides,
  };
}

describe('ratesSummary', () => {
  it("says how old the bundled rates are and that the live sources were skipped, naming the bundled data's last day", () => {
    const [first] = ratesSummary(result(), 'skipped', '2026-11-23');
    expect(first).toBe(
      'latest rates from 2026-09-29 (55 days old, 158 currencies): the live sources were skipped (FXRATES_OFFLINE), so the bundled data, which ends on 2026-09-29, is what is served.',
    );
  });

  it('says that rates newer than the bundled data were stored by an earlier start, not taken from the bundle', () => {
    // An offline restart after a live fetch, or after SOURCES dropped the source whose days were the newest.
    const [offline] = ratesSummary(
      result({ bundled: { ...result().bundled, coverage: { ecb: coverage.ecb } } }),
      'skipped',
      '2026-11-23',
    );
    expect(offline).toBe(
      'latest rates from 2026-09-29 (55 days old, 158 currencies): the live sources were skipped (FXRATES_OFFLINE), so the rates an earlier start stored, newer than the bundled data (which ends on 2026-04-13), are what is served.',
    );
    const [unreachable] = ratesSummary(
      result({ latest: { date: '2026-11-20', publishedAt: '2026-11-20T00:00:00Z', currencies: 158 } }),
      'tried',
      '2026-11-23',
    );
    expect(unreachable).toMatch(
      /could not be reached, so the rates an earlier start stored, newer than the bundled data \(which ends on 2026-09-29\), are what is served\.$/,
    );
  });

  it('says the live sources could not be reached when they were tried and failed', () => {
    const [first] = ratesSummary(result(), 'tried', '2026-09-30');
    expect(first).toMatch(/\(1 day old, 158 currencies\): the live sources could not be reached, so the bundled data/);
  });

  it('says fresh rates came from the live sources, and mentions a partial failure', () => {
    const live = result({
      used: 'live',
      latest: { date: '2026-11-23', publishedAt: '2026-11-23T15:00:00Z', currencies: 160 },
    });
    expect(ratesSummary(live, 'tried', '2026-11-23')[0]).toBe(
      'latest rates from 2026-11-23 (today, 160 currencies): fetched from the live sources just now.',
    );
    const partial = { ...live, live: { status: 'partial' as const, daysWritten: 1, sources: {} } };
    expect(ratesSummary(partial as LocalLoadResult, 'tried', '2026-11-23')[0]).toMatch(/one of them failed/);
  });

  it('names the bundled history of each source, so a 404 in a gap is explained', () => {
    const lines = ratesSummary(result(), 'skipped', '2026-11-23');
    expect(lines[1]).toBe(
      'history bundled: ECB 1999-01-04 to 2026-04-13 (6983 business days, about 30 currencies); currency-api 2026-09-01 to 2026-09-29 (29 days, 150+ currencies). Other days, and a currency on a day its source has no file for, answer 404 no-data-available.',
    );
  });

  it('says there are no latest rates yet, and leaves the history out when the coverage is unknown', () => {
    const none = result({ latest: undefined, bundled: { loaded: false, daysWritten: 0, rejections: 0 } });
    expect(ratesSummary(none as LocalLoadResult, 'tried', '2026-11-23')).toEqual([
      'no latest rates yet: the live sources could not be reached, so the bundled data is what is served; /v1/rates/latest answers 503 until rates arrive.',
    ]);
  });
});

describe('loadWarning', () => {
  it('names the refused day and what was wrong with it, not just "rates rejected"', () => {
    const rejection = { date: '2024-05-01', reason: 'missing-majors', detail: 'missing CHF' };
    expect(loadWarning('rates rejected', rejection)).toBe('rates rejected for 2024-05-01: missing CHF');
  });

  it("names the source of a refused currency's move", () => {
    const jump = { date: '2026-03-03', code: 'RUB', source: 'cbr', reason: 'jump', detail: 'RUB moved 40 %' };
    expect(loadWarning('rates rejected', jump)).toBe('rates rejected for 2026-03-03 (cbr): RUB moved 40 %');
  });

  it("names a failed source and its error, and leaves other messages' dates alone", () => {
    expect(loadWarning('source failed', { source: 'ecb', error: 'HTTP 503', date: '2026-11-23' })).toBe(
      'source failed (ecb): HTTP 503',
    );
  });

  it("leaves out the run's own failure summary, which the sources' lines already explain", () => {
    expect(loadWarning('ingestion failed: no source delivered', { sources: {} })).toBeUndefined();
  });
});
