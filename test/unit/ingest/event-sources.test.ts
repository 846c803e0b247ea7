import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { eventSources } from '../../../lambdas/ingest/handler';
import { ingestionRules } from '../../../lib/ingestion';

describe('the sources an ingestion event names', () => {
  it('fetches every configured source when the event names none', () => {
    expect(eventSources({ mode: 'scheduled' }, SOURCE_IDS)).toEqual([...SOURCE_IDS]);
    expect(eventSources(undefined, ['ecb'])).toEqual(['ecb']);
  });

  it('fetches only the named sources, in the configured order', () => {
    expect(eventSources({ mode: 'scheduled', sources: ['bnr', 'nbp'] }, SOURCE_IDS)).toEqual(['nbp', 'bnr']);
  });

  it('refuses an unknown or unconfigured source, naming it, and a list that is empty or not a list', () => {
    expect(() => eventSources({ sources: ['nbp', 'fed'] }, SOURCE_IDS)).toThrow(/not configured: fed/);
    expect(() => eventSources({ sources: ['nbp'] }, ['ecb', 'currency-api'])).toThrow(/not configured: nbp/);
    expect(() => eventSources({ sources: [] }, SOURCE_IDS)).toThrow(/non-empty list/);
    expect(() => eventSources({ sources: 'nbp' }, SOURCE_IDS)).toThrow(/non-empty list/);
  });
});

describe('the ingestion schedule', () => {
  it('runs the configured schedule for the ECB and currency-api, and each configured bank after its window', () => {
    const rules = ingestionRules({
      sources: ['ecb', 'boe', 'bcb', 'nbp', 'currency-api'],
      ingestSchedule: 'rate(1 hour)',
    });
    expect(rules.map(({ expression, sources }) => [expression, sources])).toEqual([
      ['rate(1 hour)', ['ecb', 'currency-api']],
      ['cron(15 14 ? * MON-FRI *)', ['nbp']],
      ['cron(15 19 ? * MON-FRI *)', ['boe', 'bcb']],
    ]);
  });

  it('keeps one run on the configured schedule when only central banks are configured', () => {
    const rules = ingestionRules({ sources: ['cnb'], ingestSchedule: 'rate(2 hours)' });
    expect(rules.map(({ expression, sources }) => [expression, sources])).toEqual([
      ['rate(2 hours)', ['cnb']],
      ['cron(15 16 ? * MON-FRI *)', ['cnb']],
    ]);
  });
});
