import { acceptedDays } from '../../../lambdas/core/ingest/ingest';
import type { Rejection } from '../../../lambdas/core/ingest/validate';

const day = (date: string, source: 'ecb' | 'currency-api') => ({ date, source });

describe('the days a source status may name', () => {
  const days = [day('2026-09-28', 'currency-api'), day('2026-09-29', 'currency-api'), day('2026-09-29', 'ecb')];

  it('keeps every delivered day when nothing was rejected', () => {
    expect(acceptedDays(days, [])).toEqual(days);
  });

  it("leaves out a day rejected for that source only, keeping the other source's same day", () => {
    const rejections: Rejection[] = [
      { date: '2026-09-29', reason: 'jump', detail: 'USD moved 40 %', source: 'currency-api' },
    ];
    expect(acceptedDays(days, rejections)).toEqual([day('2026-09-28', 'currency-api'), day('2026-09-29', 'ecb')]);
  });

  it('leaves out every source of a day rejected as a whole', () => {
    const rejections: Rejection[] = [{ date: '2026-09-29', reason: 'future-date', detail: 'after tomorrow' }];
    expect(acceptedDays(days, rejections)).toEqual([day('2026-09-28', 'currency-api')]);
  });
});
