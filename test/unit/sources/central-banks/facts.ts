import type { PublisherFacts } from '../../../../lambdas/core/sources/central-banks/parse-helpers';
import { recordedFacts } from './recorded';

/** The adapter's facts must be the ones recorded beside the publisher's responses. */
export function expectRecordedFacts(facts: PublisherFacts): void {
  const recorded = recordedFacts(facts.id);
  expect(facts).toEqual({
    id: recorded.id,
    name: recorded.name,
    country: recorded.country_code,
    rateKind: recorded.rate_type,
    quoteCurrency: recorded.pivot_currency,
    dataUrl: recorded.data_url,
    termsUrl: recorded.terms_url,
    scheduleCronUtc: recorded.publish_schedule_cron_utc,
    cadence: recorded.publish_cadence,
    coverageStart: recorded.coverage_start,
  });
}
