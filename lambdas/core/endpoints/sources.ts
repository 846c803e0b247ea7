import { object, type RouteDocs, ref } from '../../../api-docs/route-docs';
import { inPrecedence, PIVOT, parseSourceList, SOURCE_IDS, SOURCES_ENV, type SourceId } from '../domain/rates';
import { SOURCE_FACTS, SOURCE_SCHEDULES } from '../domain/source-facts';
import { snakeCaseCrossCheck } from '../domain/source-status';
import { optionalEnv } from '../env';
import { successResponse } from '../http/responses';
import { current, storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/**
 * GET /v1/sources: each configured source with its facts and schedule, its last delivery as ingestion recorded it,
 * its cross-check figures, and the codes it serves in the latest rates now. Two reads at most, both served from
 * memory for 60 s (the status item and LATEST). Before any rates are ingested it is 503, like every route that reads
 * rates.
 */
export const endpoint = defineEndpoint({
  route: 'sources',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => {
    // The ingest function's configuration, given to this function too (lib/api.ts); every source where unset
    // (the local server). Listed as the rule ranks them: the ECB, the central banks as configured, the aggregator.
    const listed = inPrecedence(parseSourceList(optionalEnv(SOURCES_ENV, SOURCE_IDS.join(','))));
    return async () => {
      const [statuses, { snapshot }] = await Promise.all([
        storeRead(() => deps.reader.getSourceStatuses()),
        current(deps),
      ]);
      const feeding = new Set(Object.values(snapshot.sources));
      const serving = new Map<SourceId, string[]>();
      for (const [code, source] of Object.entries(snapshot.sources)) {
        if (code === PIVOT) continue;
        const codes = serving.get(source) ?? [];
        codes.push(code);
        serving.set(source, codes);
      }
      const sources = listed.map((id) => {
        const status = statuses[id];
        const facts = SOURCE_FACTS[id];
        const served = (serving.get(id) ?? []).sort();
        return {
          id,
          name: SOURCE_SCHEDULES[id].name,
          schedule: SOURCE_SCHEDULES[id].schedule,
          origin: status?.origin ?? null,
          last_fetch_at: status?.fetchedAt ?? null,
          last_published_date: status?.publishedDate ?? null,
          last_published_at: status?.publishedAt ?? null,
          currencies: status?.currencies ?? [],
          feeds_latest: feeding.has(id),
          country: facts.country,
          rate_kind: facts.rateKind,
          terms_url: facts.termsUrl,
          data_url: facts.dataUrl,
          serving: served,
          cross_check: status?.crossCheck ? snakeCaseCrossCheck(status.crossCheck) : null,
        };
      });
      return successResponse({ sources });
    };
  },
});

const NOTES =
  'Each upstream source the deployment ingests from (its `sources` setting), in order of precedence: the ECB ' +
  'first, the central banks in the configured order, the aggregator (currency-api) last. For each currency and ' +
  'day one quote is served: the ECB for the currencies it quotes; then the currency\u2019s issuing central bank; ' +
  'then the other official publishers in that order, daily tables before weekly ones; currency-api only where no ' +
  'official publisher quotes the currency. Each source shows what it is (publisher, country, kind of rate, data ' +
  'and terms pages), its schedule, its last successful fetch, the newest day it published with when, the ' +
  'currencies it provides that day, the ones the latest rates take from it now, and how its quotes compared with ' +
  'the rates served from other publishers. Ingestion records a source after every run it delivered in; a source ' +
  'that fails keeps the facts of its last success. The facts are read at most once a minute, so they can trail a ' +
  'run by up to 60 s. Any plan.';

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  const nullableUrl = (description: string) => ({
    oneOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
    description,
  });
  return {
    tag: 'Rates',
    notes: NOTES,
    parameters: {},
    // The status item and LATEST, read from the store (cached for 60 s).
    errors: ['service-unavailable'],
    data: {
      name: 'SourceList',
      schema: object(
        {
          sources: {
            type: 'array',
            description:
              'Every configured upstream source, in order of precedence: the ECB first, the central banks in the ' +
              'configured order, currency-api last.',
            items: object(
              {
                id: ref('SourceId'),
                name: { type: 'string', description: 'What the source is.', examples: ['European Central Bank'] },
                schedule: {
                  type: 'string',
                  description: 'When the source publishes, in words.',
                  examples: ['daily, at 00:00 UTC'],
                },
                origin: {
                  enum: ['upstream', 'bundled', null],
                  description:
                    'Where the last delivery came from: `upstream`, a fetch from the source; `bundled`, the data ' +
                    'files shipped with the service (the local server, offline); null before any delivery.',
                },
                last_fetch_at: {
                  oneOf: [ref('Timestamp'), { type: 'null' }],
                  description:
                    'When the service last fetched the source successfully; null before any fetch, and when the ' +
                    'data came from the bundled files. A failed fetch leaves every field of the last success as it was.',
                },
                last_published_date: {
                  oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
                  description: 'The newest day the source delivered, `YYYY-MM-DD`; null before any delivery.',
                },
                last_published_at: {
                  oneOf: [ref('Timestamp'), { type: 'null' }],
                  description: 'When the source published that day; null before any delivery.',
                },
                currencies: {
                  type: 'array',
                  items: ref('CurrencyCode'),
                  description:
                    'The codes the source delivered for that day, sorted; EUR, the pivot, is left out. Empty before ' +
                    'any delivery.',
                },
                feeds_latest: {
                  type: 'boolean',
                  description: 'Whether the latest rates (`/rates/latest`) currently hold a quote from this source.',
                },
                country: {
                  oneOf: [{ type: 'string', pattern: '^[A-Z]{2}$' }, { type: 'null' }],
                  description:
                    'The publisher\u2019s country, ISO 3166-1 alpha-2; null for the ECB (the euro area\u2019s), the ' +
                    'IMF and currency-api.',
                  examples: ['PL'],
                },
                rate_kind: {
                  type: 'string',
                  description: 'The kind of rate the source publishes, in its own words.',
                  examples: ['average rate (table A daily, table B weekly)'],
                },
                terms_url: nullableUrl(
                  'The publisher\u2019s page on how its data may be reused; null where it has none. Cite the ' +
                    'publisher wherever its rates are shown.',
                ),
                data_url: { type: 'string', format: 'uri', description: 'Where the publisher shows its rates.' },
                serving: {
                  type: 'array',
                  items: ref('CurrencyCode'),
                  description:
                    'The codes the latest rates currently take from this source, sorted; EUR is left out. These are ' +
                    'the codes `expand=sources` attributes to it in `/rates/latest`.',
                },
                cross_check: crossCheckSchema(),
              },
              [
                'id',
                'name',
                'schedule',
                'origin',
                'last_fetch_at',
                'last_published_date',
                'last_published_at',
                'currencies',
                'feeds_latest',
                'country',
                'rate_kind',
                'terms_url',
                'data_url',
                'serving',
                'cross_check',
              ],
            ),
          },
        },
        ['sources'],
      ),
    },
    example: { sources: EXAMPLE_SOURCES.map(exampleSource) },
  };
}

/** `cross_check` of one source: its newest day's quotes against the rates served from other publishers. */
function crossCheckSchema() {
  const count = { type: 'integer', minimum: 0 };
  return {
    oneOf: [
      object(
        {
          date: {
            type: 'string',
            format: 'date',
            description: 'The day checked: the source\u2019s newest.',
          },
          tolerance: {
            type: 'number',
            description: 'The relative spread above which a quote counts as over tolerance (0.05 = 5 %).',
          },
          compared: {
            ...count,
            description: 'How many of its quotes were compared with a rate served from another publisher.',
          },
          over_tolerance: {
            ...count,
            description: 'How many of those differ by more than the tolerance.',
          },
          max_spread: {
            type: 'number',
            minimum: 0,
            description: 'The widest relative spread, |quote \u2212 served| / served.',
          },
          worst: {
            oneOf: [
              object(
                {
                  code: ref('CurrencyCode'),
                  spread: { type: 'number', minimum: 0 },
                  served_by: ref('SourceId'),
                },
                ['code', 'spread', 'served_by'],
              ),
              { type: 'null' },
            ],
            description: 'The quote with that spread, and the source whose rate was served for it.',
          },
        },
        ['date', 'tolerance', 'compared', 'over_tolerance', 'max_spread', 'worst'],
      ),
      { type: 'null' },
    ],
    description:
      'Its newest day\u2019s quotes against the rates served that day where another publisher\u2019s ' +
      'quote was chosen; null before any was compared. The ECB, which serves every code it quotes, and ' +
      'currency-api, never checked, have none.',
  };
}

/** The example's own figures per source; names, schedules and facts come from the code. */
const EXAMPLE_SOURCES: readonly {
  id: SourceId;
  published: [date: string, at: string];
  currencies: string[];
  serving: string[];
  crossCheck: ReturnType<typeof snakeCaseCrossCheck> | null;
}[] = [
  {
    id: 'ecb',
    published: ['2026-09-29', '2026-09-29T14:00:00Z'],
    currencies: ['AUD', 'CHF', 'GBP', 'JPY', 'PLN', 'USD'],
    serving: ['AUD', 'CHF', 'GBP', 'JPY', 'PLN', 'USD'],
    crossCheck: null,
  },
  {
    id: 'nbp',
    published: ['2026-09-29', '2026-09-29T11:00:00Z'],
    currencies: ['AFN', 'CLP', 'GBP', 'UAH', 'USD'],
    serving: ['AFN', 'CLP', 'UAH'],
    crossCheck: {
      date: '2026-09-29',
      tolerance: 0.05,
      compared: 31,
      over_tolerance: 0,
      max_spread: 0.00412,
      worst: { code: 'ZAR', spread: 0.00412, served_by: 'ecb' },
    },
  },
  {
    id: 'currency-api',
    published: ['2026-09-30', '2026-09-30T00:00:00Z'],
    currencies: ['AED', 'AFN', 'AUD', 'GBP', 'USD'],
    serving: ['AED', 'BTN', 'FJD'],
    crossCheck: null,
  },
];

function exampleSource(sample: (typeof EXAMPLE_SOURCES)[number]) {
  const facts = SOURCE_FACTS[sample.id];
  return {
    id: sample.id,
    name: SOURCE_SCHEDULES[sample.id].name,
    schedule: SOURCE_SCHEDULES[sample.id].schedule,
    origin: 'upstream',
    last_fetch_at: '2026-09-30T06:00:04Z',
    last_published_date: sample.published[0],
    last_published_at: sample.published[1],
    currencies: sample.currencies,
    feeds_latest: sample.serving.length > 0,
    country: facts.country,
    rate_kind: facts.rateKind,
    terms_url: facts.termsUrl,
    data_url: facts.dataUrl,
    serving: sample.serving,
    cross_check: sample.crossCheck,
  };
}
