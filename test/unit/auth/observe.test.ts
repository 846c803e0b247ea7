import type { AuthorizerOutcome } from '../../../lambdas/core/auth/authorizer';
import {
  createAuthorizerObserver,
  isQuotaSample,
  percentUsed,
  QUOTA_SAMPLE_CUTOFF_MS,
  verdictOf,
} from '../../../lambdas/core/auth/observe';
import { Logger, Metrics } from '../../../lambdas/core/observability';
import { METER_AT, proMeter } from '../../support/meter';

interface Line {
  _aws?: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

/** An observer writing into arrays: the EMF decision lines and the log lines, parsed. */
function observer(now = () => METER_AT) {
  const emf: string[] = [];
  const logs: string[] = [];
  const observe = createAuthorizerObserver(now, {
    metrics: new Metrics({ namespace: 'fxrates', serviceName: 'fxrates', write: (l) => emf.push(l), disabled: false }),
    logger: new Logger({ serviceName: 'fxrates', logLevel: 'INFO', write: (l) => logs.push(l) }),
  });
  return {
    observe,
    emf: () => emf.map((l) => JSON.parse(l) as Line),
    logs: () => logs.map((l) => JSON.parse(l) as Line),
  };
}

const metered = (overrides: Parameters<typeof proMeter>[0] = {}, accountId = 'acc-1'): AuthorizerOutcome => ({
  kind: 'metered',
  accountId,
  plan: 'pro',
  meter: proMeter(overrides),
});

describe('the authorizer observer', () => {
  it('writes one EMF line per decision: Requests = 1 by plan and verdict, in the fxrates namespace', () => {
    const o = observer();
    o.observe(metered());
    const [line, ...more] = o.emf();
    expect(more).toEqual([]);
    expect(line?._aws?.CloudWatchMetrics).toEqual([
      {
        Namespace: 'fxrates',
        Dimensions: [['service', 'plan', 'verdict']],
        Metrics: [{ Name: 'Requests', Unit: 'Count' }],
      },
    ]);
    expect(line).toMatchObject({ service: 'fxrates', plan: 'Pro', verdict: 'admitted', Requests: 1 });
    expect(line?._aws?.Timestamp).toBe(METER_AT);
  });

  it.each([
    ['a missing key', { kind: 'missing-api-key' }, 'none', 'missing-api-key'],
    ['an unknown key', { kind: 'invalid-api-key' }, 'none', 'invalid-api-key'],
    ['a key in the URL', { kind: 'api-key-in-url' }, 'none', 'api-key-in-url'],
    [
      'a suspended account',
      { kind: 'account-inactive', accountId: 'acc-9', plan: 'business' },
      'Business',
      'account-inactive',
    ],
    ['a minute used up', metered({ verdict: 'rate-limit-exceeded' }), 'Pro', 'rate-limit-exceeded'],
    ['a month used up', metered({ verdict: 'quota-exceeded' }), 'Pro', 'quota-exceeded'],
  ] as [string, AuthorizerOutcome, string, string][])(
    'counts %s under plan %s and verdict %s',
    (_, outcome, plan, verdict) => {
      const o = observer();
      o.observe(outcome);
      expect(verdictOf(outcome)).toBe(verdict);
      expect(o.emf()).toEqual([expect.objectContaining({ plan, verdict, Requests: 1 })]);
    },
  );

  it('puts the account, the month and the share used on a metered line, as fields that are no metric', () => {
    const o = observer();
    o.observe(metered({ monthUsed: 29_999, monthLimit: 33_000 }));
    const [line] = o.emf();
    expect(line).toMatchObject({ accountId: 'acc-1', monthUsed: 29_999, monthLimit: 33_000, percentUsed: 90.9 });
    expect(line?._aws?.CloudWatchMetrics[0]?.Metrics.map((m) => m.Name)).toEqual(['Requests']);
    expect(Object.keys(line ?? {}).sort()).toEqual(
      [
        '_aws',
        'Requests',
        'service',
        'plan',
        'verdict',
        'accountId',
        'monthUsed',
        'monthLimit',
        'percentUsed',
        'quotaSample',
      ].sort(),
    );
  });

  it('names the account of an inactive one but carries no meter; keyless decisions carry no account', () => {
    const o = observer();
    o.observe({ kind: 'account-inactive', accountId: 'acc-9', plan: 'free' });
    o.observe({ kind: 'invalid-api-key' });
    const [inactive, invalid] = o.emf();
    expect(inactive).toMatchObject({ accountId: 'acc-9', plan: 'Free' });
    expect(inactive).not.toHaveProperty('percentUsed');
    expect(invalid).not.toHaveProperty('accountId');
    expect(invalid).not.toHaveProperty('percentUsed');
  });

  it('leaves the fields of one decision off the next line', () => {
    const o = observer();
    o.observe(metered());
    o.observe({ kind: 'missing-api-key' });
    expect(o.emf()[1]).toEqual(
      expect.not.objectContaining({ accountId: expect.anything(), percentUsed: expect.anything() }),
    );
  });

  it('marks exactly the first admitted request of an account’s minute as its quota sample', () => {
    const o = observer();
    o.observe(metered({ minuteUsed: 1 }));
    o.observe(metered({ minuteUsed: 2 }));
    o.observe(metered({ minuteUsed: 1, verdict: 'quota-exceeded' }));
    expect(o.emf().map((line) => line.quotaSample)).toEqual([1, undefined, undefined]);
  });

  it('gives up the sample of a minute that started too late to be logged within it', () => {
    const minute = METER_AT - (METER_AT % 60_000);
    expect(isQuotaSample(proMeter({ at: minute }))).toBe(true);
    expect(isQuotaSample(proMeter({ at: minute + QUOTA_SAMPLE_CUTOFF_MS - 1 }))).toBe(true);
    expect(isQuotaSample(proMeter({ at: minute + QUOTA_SAMPLE_CUTOFF_MS }))).toBe(false);
    expect(isQuotaSample(proMeter({ at: minute + 59_999 }))).toBe(false);
  });

  it('writes a readable line for each refusal and none for an admission, never with a key', () => {
    const o = observer();
    o.observe(metered());
    o.observe(metered({ verdict: 'rate-limit-exceeded', minuteUsed: 61 }));
    o.observe({ kind: 'account-inactive', accountId: 'acc-9', plan: 'free' });
    o.observe({ kind: 'missing-api-key' });
    expect(o.logs()).toEqual([
      expect.objectContaining({
        message: 'request refused',
        reason: 'rate-limit-exceeded',
        accountId: 'acc-1',
        plan: 'Pro',
        minuteUsed: 61,
      }),
      expect.objectContaining({ message: 'request refused', reason: 'account-inactive', accountId: 'acc-9' }),
      expect.objectContaining({ message: 'request refused', reason: 'missing-api-key' }),
    ]);
    expect(JSON.stringify([...o.logs(), ...o.emf()])).not.toMatch(/fxr_|apiKey|x-api-key/i);
  });

  it('writes nothing to the metrics when they are disabled, but still logs the refusal', () => {
    const emf: string[] = [];
    const logs: string[] = [];
    const observe = createAuthorizerObserver(() => METER_AT, {
      metrics: new Metrics({ write: (l) => emf.push(l), disabled: true }),
      logger: new Logger({ logLevel: 'INFO', write: (l) => logs.push(l) }),
    });
    observe(metered({ verdict: 'quota-exceeded' }));
    expect(emf).toEqual([]);
    expect(logs).toHaveLength(1);
  });
});

describe('percentUsed', () => {
  it.each([
    [0, 1500, 0],
    [1, 3, 33.3],
    [2, 3, 66.6],
    [899, 1000, 89.9],
    [1349, 1500, 89.9],
    [1350, 1500, 90],
    [1500, 1500, 100],
    [1650, 1500, 110],
  ])('rounds %d of %d down to %d %%, so a share reads as reached only once it is', (used, limit, percent) => {
    expect(percentUsed({ monthUsed: used, monthLimit: limit })).toBe(percent);
  });

  it('has no share for an account without a monthly limit', () => {
    expect(percentUsed({ monthUsed: 5, monthLimit: 0 })).toBeUndefined();
  });
});
