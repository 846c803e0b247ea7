/**
 * The rate rule on a real day: every recorded publisher's 2026-03-04 answers parsed, converted to the euro and merged
 * with the ECB's day of the same date, as ingestion does. Each currency shows every publisher's quote, the rate
 * served, which publisher the rule chose and each other quote's spread against it.
 */
import { join } from 'node:path';
import { crossCheck } from '../../../lambdas/core/domain/official-rates';
import { AGGREGATOR, SOURCE_IDS, type SourceId } from '../../../lambdas/core/domain/rates';
import {
  type CrossCheckSummary,
  countedOverTolerance,
  crossCheckSources,
  DEFAULT_CROSS_CHECK_EXEMPT,
  DEFAULT_CROSS_CHECK_TOLERANCE,
} from '../../../lambdas/core/domain/source-status';
import { buildLatest, mergeDay } from '../../../lambdas/core/ingest/merge';
import { bundledFiles, readBundledSource } from '../../../local-server/bundled-data';
import { DATA_DIR } from '../../support/upstream-server';

const DATE = '2026-03-04';
const files = bundledFiles(join(DATA_DIR));
const officials = SOURCE_IDS.filter((id) => id !== AGGREGATOR);
const days = officials.flatMap((id) => readBundledSource(files, id, { from: DATE, to: DATE }));

/** Units per EUR as each publisher's answers give them (12 significant digits), and the spreads at 6. */
const EXPECTED: Record<
  string,
  {
    servedBy: SourceId;
    served: number;
    quotes: Partial<Record<SourceId, number>>;
    spreads: Partial<Record<SourceId, number>>;
  }
> = {
  USD: {
    servedBy: 'ecb',
    served: 1.1649,
    quotes: {
      ecb: 1.1649,
      nbp: 1.16086483546,
      cnb: 1.16477001052,
      bnr: 1.16344748858,
      rba: 1.15942989725,
      nbu: 1.16119968335,
      cbr: 1.16364662482,
      tcmb: 1.16217532782,
      bcb: 1.16409744486,
      imf: 1.1649,
    },
    spreads: {
      bcb: 0.000688948,
      bnr: 0.0012469,
      cbr: 0.00107595,
      cnb: 0.000111589,
      imf: 0,
      nbp: 0.00346396,
      nbu: 0.00317651,
      rba: 0.00469577,
      tcmb: 0.00233898,
    },
  },
  JPY: {
    servedBy: 'ecb',
    served: 183.02,
    quotes: {
      ecb: 183.02,
      nbp: 182.49251817,
      cnb: 183.047790803,
      bnr: 182.996373038,
      rba: 182.466025853,
      nbu: 183.070420491,
      cbr: 183.169688402,
      tcmb: 183.108610941,
      bcb: 182.867913148,
      imf: 183.658134,
    },
    spreads: {
      bcb: 0.000830985,
      bnr: 0.000129095,
      cbr: 0.00081788,
      cnb: 0.000151846,
      imf: 0.00348669,
      nbp: 0.0028821,
      nbu: 0.000275492,
      rba: 0.00302685,
      tcmb: 0.00048416,
    },
  },
  GBP: {
    servedBy: 'ecb',
    served: 0.8705,
    quotes: {
      ecb: 0.8705,
      nbp: 0.868905852417,
      cnb: 0.870559645486,
      bnr: 0.869845008876,
      rba: 0.870898243288,
      nbu: 0.871640424595,
      cbr: 0.870276396001,
      tcmb: 0.872958146,
      bcb: 0.870937163375,
      imf: 0.870725417648,
    },
    spreads: {
      bcb: 0.000502198,
      bnr: 0.000752431,
      cbr: 0.000256868,
      cnb: 0.0000685187,
      imf: 0.000258952,
      nbp: 0.0018313,
      nbu: 0.00131008,
      rba: 0.000457488,
      tcmb: 0.00282383,
    },
  },
  CHF: {
    servedBy: 'ecb',
    served: 0.9082,
    quotes: {
      ecb: 0.9082,
      nbp: 0.909449238308,
      cnb: 0.907972716091,
      bnr: 0.908943350457,
      rba: 0.906198210143,
      nbu: 0.910729562609,
      cbr: 0.914510172442,
      tcmb: 0.911901342793,
      bcb: 0.907769461078,
      imf: 0.90955392,
    },
    spreads: {
      bcb: 0.000474057,
      bnr: 0.000818488,
      cbr: 0.006948,
      cnb: 0.000250258,
      imf: 0.00149077,
      nbp: 0.00137551,
      nbu: 0.00278525,
      rba: 0.00220413,
      tcmb: 0.00407547,
    },
  },
  CAD: {
    servedBy: 'ecb',
    served: 1.591,
    quotes: {
      ecb: 1.591,
      nbp: 1.58751115739,
      cnb: 1.59090909091,
      bnr: 1.59043101027,
      rba: 1.58750414319,
      nbu: 1.58945209881,
      cbr: 1.59279914213,
      tcmb: 1.5914538067,
      bcb: 1.58990561091,
      imf: 1.59171936,
    },
    spreads: {
      bcb: 0.000687862,
      bnr: 0.00035763,
      cbr: 0.00113082,
      cnb: 0.0000571396,
      imf: 0.000452143,
      nbp: 0.00219286,
      nbu: 0.000972911,
      rba: 0.00219727,
      tcmb: 0.000285234,
    },
  },
  AUD: {
    servedBy: 'ecb',
    served: 1.6503,
    quotes: {
      ecb: 1.6503,
      nbp: 1.6493431221,
      cnb: 1.65040650407,
      bnr: 1.65129617628,
      rba: 1.65727543918,
      nbu: 1.65201149802,
      cbr: 1.63801747029,
      tcmb: 1.64793021642,
      bcb: 1.64583107154,
      imf: 1.66509433962,
    },
    spreads: {
      bcb: 0.00270795,
      bnr: 0.000603633,
      cbr: 0.0074426,
      cnb: 0.0000645362,
      imf: 0.00896464,
      nbp: 0.000579821,
      nbu: 0.00103708,
      rba: 0.00422677,
      tcmb: 0.00143597,
    },
  },
  PLN: {
    servedBy: 'ecb',
    served: 4.2588,
    quotes: {
      ecb: 4.2588,
      nbp: 4.2685,
      cnb: 4.26097603638,
      bnr: 4.26221144195,
      nbu: 4.28190658837,
      cbr: 4.2845526141,
      imf: 4.2833373,
    },
    spreads: { bnr: 0.000801034, cbr: 0.00604692, cnb: 0.000510951, imf: 0.00576155, nbp: 0.00227764, nbu: 0.00542561 },
  },
  CZK: {
    servedBy: 'ecb',
    served: 24.36,
    quotes: {
      ecb: 24.36,
      nbp: 24.3774985722,
      cnb: 24.36,
      bnr: 24.3473483039,
      nbu: 24.3566636096,
      cbr: 24.130552698,
      imf: 24.3627186,
    },
    spreads: { bnr: 0.000519364, cbr: 0.00941902, cnb: 0, imf: 0.000111601, nbp: 0.000718332, nbu: 0.000136962 },
  },
  RON: {
    servedBy: 'ecb',
    served: 5.0925,
    quotes: {
      ecb: 5.0925,
      nbp: 5.09793383495,
      cnb: 5.09303784236,
      bnr: 5.0959,
      nbu: 5.09869045935,
      cbr: 5.11305243849,
      tcmb: 5.10306001589,
    },
    spreads: { bnr: 0.000667649, cbr: 0.00403582, cnb: 0.000105615, nbp: 0.00106703, nbu: 0.0012156, tcmb: 0.00207364 },
  },
  TRY: {
    servedBy: 'ecb',
    served: 51.2254,
    quotes: {
      ecb: 51.2254,
      nbp: 51.119760479,
      cnb: 51.2205891629,
      bnr: 51.1636546185,
      nbu: 51.0674020848,
      cbr: 51.1125826315,
      tcmb: 51.05535,
    },
    spreads: {
      bnr: 0.00120537,
      cbr: 0.00220237,
      cnb: 0.0000939151,
      nbp: 0.00206225,
      nbu: 0.00308437,
      tcmb: 0.00331964,
    },
  },
  UAH: {
    servedBy: 'nbu',
    served: 50.4597,
    quotes: { nbp: 50.7550535077, bnr: 50.959, nbu: 50.4597, cbr: 50.3093438212 },
    spreads: { bnr: 0.00989503, cbr: 0.00297973, nbp: 0.00585326 },
  },
};

describe(`the rate rule on ${DATE}, from the recorded answers`, () => {
  const { snapshot } = mergeDay(DATE, undefined, days);
  const checks = crossCheck(
    snapshot,
    new Map(days.map((d) => [d.source, d.rates])),
    DEFAULT_CROSS_CHECK_TOLERANCE,
    AGGREGATOR,
  );

  it('has a day from every publisher that published one (BoC, BoE and BoI have none recorded that day)', () => {
    expect(days.map((d) => d.source)).toEqual(['ecb', 'nbp', 'cnb', 'bnr', 'rba', 'nbu', 'cbr', 'tcmb', 'bcb', 'imf']);
  });

  it.each(Object.entries(EXPECTED))('%s: every quote, the rate served, its publisher and the spreads', (code, want) => {
    const quotes = Object.fromEntries(
      days.flatMap((d) => (d.rates[code] === undefined ? [] : [[d.source, d.rates[code]]])),
    );
    expect(quotes).toEqual(want.quotes);
    expect(snapshot.sources[code]).toBe(want.servedBy);
    expect(snapshot.rates[code]).toBe(want.served);
    const spreads = Object.fromEntries(checks.filter((c) => c.code === code).map((c) => [c.source, c.spread]));
    expect(spreads).toEqual(want.spreads);
    for (const check of checks.filter((c) => c.code === code)) expect(check.overTolerance).toBe(false);
  });

  it('serves the issuing bank where the ECB has no rate, and the ECB over every issuer', () => {
    expect(snapshot.sources.UAH).toBe('nbu');
    expect(snapshot.sources.RUB).toBe('cbr');
    expect(snapshot.sources.BRL).toBe('ecb');
    expect(snapshot.sources.PLN).toBe('ecb');
  });

  it('without the ECB: issuers for their own currency, then the configured order, weekly tables after daily ones', () => {
    const without = mergeDay(
      DATE,
      undefined,
      days.filter((d) => d.source !== 'ecb'),
    ).snapshot;
    expect(
      Object.fromEntries(
        ['USD', 'AUD', 'PLN', 'CZK', 'RON', 'TRY', 'UAH', 'RUB', 'BRL', 'KZT'].map((c) => [c, without.sources[c]]),
      ),
    ).toEqual({
      USD: 'nbp',
      AUD: 'rba',
      PLN: 'nbp',
      CZK: 'cnb',
      RON: 'bnr',
      TRY: 'tcmb',
      UAH: 'nbu',
      RUB: 'cbr',
      BRL: 'bcb',
      // NBP quotes the tenge in its weekly table B: NBU's daily quote ranks first.
      KZT: 'nbu',
    });
    // A configured order moves the choice among the other publishers: CNB before NBP for the dollar.
    const reordered = mergeDay(
      DATE,
      undefined,
      days.filter((d) => d.source !== 'ecb'),
      ['cnb', 'nbp', 'bnr', 'rba', 'nbu', 'cbr', 'tcmb', 'bcb', 'imf', 'currency-api'],
    ).snapshot;
    expect(reordered.sources.USD).toBe('cnb');
    expect(reordered.sources.PLN).toBe('nbp');
  });

  it("records each publisher's cross-check of the day, and flags the Cuban peso NBP and CBR disagree on", () => {
    const { summaries, over } = crossCheckSources(days, () => snapshot, DEFAULT_CROSS_CHECK_TOLERANCE);
    // The ECB serves every code it quotes, so none of its quotes is compared: it has no figures.
    expect(summaries.ecb).toBeUndefined();
    expect(summaries.cnb).toMatchObject({ date: DATE, overTolerance: 0 });
    expect(summaries.nbp).toMatchObject({ date: DATE, overTolerance: 1, worst: { code: 'CUP', servedBy: 'cbr' } });
    expect(summaries.nbp?.maxSpread).toBeGreaterThan(0.9);
    expect(over.map((c) => `${c.code} ${c.source}/${c.servedBy}`)).toEqual(['CUP nbp/cbr']);
  });

  it('keeps the Cuban peso over tolerance but out of the count the alarm reads while it is exempt', () => {
    const exempt = new Set(DEFAULT_CROSS_CHECK_EXEMPT);
    const { summaries, over } = crossCheckSources(days, () => snapshot, DEFAULT_CROSS_CHECK_TOLERANCE, exempt);
    expect(summaries.nbp).toMatchObject({ overTolerance: 1, exempt: 1, worst: { code: 'CUP' } });
    expect(countedOverTolerance(summaries.nbp as CrossCheckSummary)).toBe(0);
    expect(over.map((c) => c.code)).toEqual(['CUP']);
    // A source with no exempt quote over tolerance carries no exempt figure.
    expect(summaries.cnb).not.toHaveProperty('exempt');
    // Without the exemption the same day counts one.
    const plain = crossCheckSources(days, () => snapshot, DEFAULT_CROSS_CHECK_TOLERANCE);
    expect(countedOverTolerance(plain.summaries.nbp as CrossCheckSummary)).toBe(1);
  });

  it('counts every other over-tolerance quote whatever is exempt', () => {
    // At 1 % ordinary spreads pass the tolerance too; only the Cuban peso is left out of the count.
    const exempt = new Set(DEFAULT_CROSS_CHECK_EXEMPT);
    const { summaries, over } = crossCheckSources(days, () => snapshot, 0.01, exempt);
    for (const [source, summary] of Object.entries(summaries)) {
      const notExempt = over.filter((c) => c.source === source && !exempt.has(c.code)).length;
      expect({ source, counted: countedOverTolerance(summary) }).toEqual({ source, counted: notExempt });
    }
    expect(over.filter((c) => !exempt.has(c.code)).length).toBeGreaterThan(0);
  });

  it('serves 148 currencies (EUR included) from the official publishers alone, 147 of them quoted', () => {
    expect(Object.keys(snapshot.rates)).toHaveLength(148);
    expect(buildLatest([snapshot], officials)?.latest.rates).toBeDefined();
  });
});
