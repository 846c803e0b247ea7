import type { AdapterFacts } from '../../../../lambdas/core/sources/central-banks/official-day';
import { expectFactsMatch, recordedFacts } from './recorded';

/** The adapter's facts (from domain/publishers.ts) must be the ones recorded beside the publisher's responses. */
export function expectRecordedFacts(facts: AdapterFacts): void {
  expectFactsMatch({ ...facts }, recordedFacts(facts.id));
}
