/**
 * Least privilege and isolation, asserted on the synthesized templates: what each dashboard function may do to the
 * accounts table's items (test/integration/dashboard/dashboard-item-access.test.ts runs the code against the same
 * grants), the reserved concurrency of ingestion and of the dashboard, and what Lambda does with them: a reservation
 * the account cannot give, and the ingestion events that wait while another run holds the one instance.
 */

import { Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { DASHBOARD_ROUTES, type DashboardRouteId } from '../../lambdas/core/http/dashboard-routes';
import {
  MIN_ACCOUNT_CONCURRENCY,
  MIN_UNRESERVED_CONCURRENCY,
  RESERVED_CONCURRENCY,
  TOTAL_RESERVED_CONCURRENCY,
} from '../../lib/concurrency';
import { readDeployConfig } from '../../lib/config';
import type { FxratesFunction } from '../../lib/fxrates-function';
import { grantTableItems } from '../../lib/grants';
import * as synth from './synth';

let s: synth.Synthesized;
let off: synth.Synthesized;

beforeAll(() => {
  s = synth.synthesize(synth.SKIP_BUNDLING);
  off = synth.synthesize({ ...synth.SKIP_BUNDLING, reservedConcurrency: 'false' });
}, 180_000);

afterAll(() => {
  s?.dispose();
  off?.dispose();
});

const dashboardFunction = (synthesis: synth.Synthesized, id: DashboardRouteId): FxratesFunction => {
  const fn = synthesis.fx.service.dashboardApi.routeFunctions.get(id);
  if (!fn) throw new Error(`no function for ${id}`);
  return fn;
};

describe('dashboard functions on the accounts table', () => {
  /** `<action> <patterns>` per action on the table itself; an unconditioned statement shows as `<action> ANY`. */
  function itemGrants(fn: FxratesFunction): string[] {
    const accountsArn = { 'Fn::ImportValue': expect.any(String) };
    return synth
      .policyStatementsOf(s.service, fn.role)
      .filter((st) => st.Action.some((a) => a.startsWith('dynamodb:')))
      .filter((st) => !JSON.stringify(st.Resource).includes('/index/'))
      .flatMap((st) => {
        expect(st.Resource).toEqual([accountsArn]);
        const patterns = (st.Condition?.['ForAllValues:StringLike'] as Record<string, string[]> | undefined)?.[
          'dynamodb:LeadingKeys'
        ];
        if (st.Condition) expect(Object.keys(st.Condition)).toEqual(['ForAllValues:StringLike']);
        const keys = patterns ? [...patterns].sort().join(' ') : 'ANY';
        return st.Action.map((a) => `${a.replace('dynamodb:', '')} ${keys}`);
      })
      .sort();
  }

  // Written out on purpose: this table is the review of what each function may touch.
  it.each<[DashboardRouteId, string[]]>([
    ['account', ['GetItem ACCOUNT#* USAGE#*', 'PutItem ACCOUNT#*']],
    ['keys-list', ['GetItem ACCOUNT#*', 'PutItem ACCOUNT#*']],
    ['keys-create', ['GetItem ACCOUNT#*', 'PutItem ACCOUNT#* KEY#*', 'UpdateItem ACCOUNT#*']],
    ['keys-revoke', ['GetItem ACCOUNT#* KEY#*', 'PutItem ACCOUNT#*', 'UpdateItem ACCOUNT#* KEY#*']],
    ['plans', ['GetItem ACCOUNT#*', 'PutItem ACCOUNT#*']],
  ])('lets %s touch only its own kinds of item, by partition key prefix', (id, expected) => {
    expect(itemGrants(dashboardFunction(s, id))).toEqual(expected);
  });

  it('covers every dashboard route in the table above, and lets none write usage items', () => {
    expect(DASHBOARD_ROUTES.map((r) => r.id).sort()).toEqual([
      'account',
      'keys-create',
      'keys-list',
      'keys-revoke',
      'plans',
    ]);
    for (const route of DASHBOARD_ROUTES) {
      const writes = itemGrants(dashboardFunction(s, route.id)).filter((g) => !g.startsWith('GetItem'));
      expect(writes.join(' ')).not.toMatch(/USAGE#|ANY/);
    }
  });

  it('refuses to put a LeadingKeys condition on an action that names no key, where it would allow everything', () => {
    synth.withScratchApp(undefined, (app) => {
      const stack = new Stack(app, 'Probe');
      const table = new dynamodb.Table(stack, 'T', {
        partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      });
      const role = new iam.Role(stack, 'R', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      expect(() => grantTableItems(role, table, ['Scan'], ['ACCOUNT#*'])).toThrow(/does not limit Scan/);
      expect(() => grantTableItems(role, table, ['GetItem'], [])).toThrow(/at least one/);
    });
  });
});

// --- Reserved concurrency ---------------------------------------------------------------------------------------

/** ReservedConcurrentExecutions of every function of both stacks, by logical id (absent: none reserved). */
function reservations(synthesis: synth.Synthesized): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  for (const template of [synthesis.data, synthesis.service]) {
    for (const [id, fn] of Object.entries(synth.resourcesOf(template, 'AWS::Lambda::Function'))) {
      out.set(id, fn.Properties?.ReservedConcurrentExecutions as number | undefined);
    }
  }
  return out;
}

/**
 * Lambda's rule for a reservation: the account's unreserved concurrency must stay at least 100
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html). Why a deploy fails or succeeds.
 */
function deployableOn(accountLimit: number, synthesis: synth.Synthesized): boolean {
  const reserved = [...reservations(synthesis).values()].reduce<number>((sum, n) => sum + (n ?? 0), 0);
  return reserved === 0 || accountLimit - reserved >= MIN_UNRESERVED_CONCURRENCY;
}

describe('reserved concurrency', () => {
  it('reserves one instance for ingestion and caps each dashboard function, and nothing else', () => {
    const expected = new Map<string, number>([
      [synth.logicalIdOf(s.fx.service.ingestion.function.function), RESERVED_CONCURRENCY.ingest],
      ...DASHBOARD_ROUTES.map(
        (r) =>
          [synth.logicalIdOf(dashboardFunction(s, r.id).function), RESERVED_CONCURRENCY.dashboardFunction] as [
            string,
            number,
          ],
      ),
    ]);
    const reserved = [...reservations(s).entries()].filter(([, n]) => n !== undefined);
    expect(new Map(reserved)).toEqual(expected);
    expect(RESERVED_CONCURRENCY.ingest).toBe(1);
    expect([...expected.values()].reduce((a, b) => a + b, 0)).toBe(TOTAL_RESERVED_CONCURRENCY);
  });

  it('leaves the public API and its authorizer on the unreserved pool', () => {
    const publicIds = [s.fx.service.api.authorizerFunction, ...s.fx.service.api.routeFunctions.values()].map((f) =>
      synth.logicalIdOf(f.function),
    );
    expect(publicIds.length).toBeGreaterThan(1);
    for (const id of publicIds) expect([id, reservations(s).get(id)]).toEqual([id, undefined]);
  });

  it('reserves nothing with reservedConcurrency=false', () => {
    const all = [...reservations(off).values()];
    expect(all.length).toBeGreaterThan(DASHBOARD_ROUTES.length);
    expect(all.filter((n) => n !== undefined)).toEqual([]);
  });

  it('deploys with reservations only on an account whose limit leaves 100 unreserved, and anywhere without', () => {
    expect(MIN_ACCOUNT_CONCURRENCY).toBe(TOTAL_RESERVED_CONCURRENCY + 100);
    // New accounts often start at 10 in all; the usual default is 1,000.
    expect(deployableOn(10, s)).toBe(false);
    expect(deployableOn(MIN_ACCOUNT_CONCURRENCY - 1, s)).toBe(false);
    expect(deployableOn(MIN_ACCOUNT_CONCURRENCY, s)).toBe(true);
    expect(deployableOn(1000, s)).toBe(true);
    expect(deployableOn(10, off)).toBe(true);
  });

  it.each([
    [undefined, true],
    ['true', true],
    ['false', false],
    [false, false],
  ])('reads reservedConcurrency=%p as %p', (value, expected) => {
    const config = readDeployConfig((key) =>
      key === 'alarmNotifications' ? 'none' : key === 'reservedConcurrency' ? value : undefined,
    );
    expect(config.reservedConcurrency).toBe(expected);
  });

  it('refuses a reservedConcurrency that is not a boolean, naming the flag', () => {
    const read = (value: string) =>
      readDeployConfig((key) =>
        key === 'alarmNotifications' ? 'none' : key === 'reservedConcurrency' ? value : undefined,
      );
    expect(() => read('10')).toThrow(/Invalid CDK context: reservedConcurrency/);
  });
});

// --- Ingestion events while the one instance is busy -------------------------------------------------------------

interface IngestSettings {
  reserved: number;
  timeoutSeconds: number;
  retryAttempts: number;
  maxEventAgeSeconds: number;
}

/** The ingestion function's settings as the template gives them to Lambda. */
function ingestSettings(synthesis: synth.Synthesized): IngestSettings {
  const fnId = synth.logicalIdOf(synthesis.fx.service.ingestion.function.function);
  const fn = synth.propsOf(synth.resourcesOf(synthesis.service, 'AWS::Lambda::Function')[fnId]);
  const configs = Object.values(synth.resourcesOf(synthesis.service, 'AWS::Lambda::EventInvokeConfig'))
    .map(synth.propsOf)
    .filter((c) => JSON.stringify(c.FunctionName) === JSON.stringify({ Ref: fnId }));
  expect(configs).toHaveLength(1);
  const config = configs[0] as Record<string, number>;
  return {
    reserved: fn.ReservedConcurrentExecutions as number,
    timeoutSeconds: fn.Timeout as number,
    retryAttempts: config.MaximumRetryAttempts as number,
    maxEventAgeSeconds: config.MaximumEventAgeInSeconds as number,
  };
}

interface Outcome {
  runs: { event: string; start: number }[];
  /** Events Lambda gave up on because they grew older than the maximum age (they go to the dead-letter queue). */
  expired: string[];
}

/**
 * Lambda's asynchronous queue in front of a function with reserved concurrency, as documented
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html): a function error is retried
 * after 1 minute, then 2; a throttled event goes back to the queue and is tried again after 1 s, doubling up to
 * 5 minutes; an event older than the maximum age is discarded. Worst case here: every run fails at its timeout.
 */
function replayAsyncQueue(settings: IngestSettings, arrivals: { event: string; at: number }[]): Outcome {
  const queue = arrivals.map((a) => ({ ...a, due: a.at, attempts: 0, backoff: 1 }));
  const busy: number[] = [];
  const outcome: Outcome = { runs: [], expired: [] };
  while (queue.length > 0) {
    queue.sort((a, b) => a.due - b.due || a.at - b.at);
    const next = queue[0] as (typeof queue)[number];
    const now = next.due;
    if (now - next.at > settings.maxEventAgeSeconds) {
      outcome.expired.push(next.event);
      queue.shift();
      continue;
    }
    const running = busy.filter((end) => end > now).length;
    if (running >= settings.reserved) {
      next.due = now + next.backoff;
      next.backoff = Math.min(next.backoff * 2, 300);
      continue;
    }
    outcome.runs.push({ event: next.event, start: now });
    busy.push(now + settings.timeoutSeconds);
    next.attempts++;
    next.backoff = 1;
    if (next.attempts > settings.retryAttempts) queue.shift();
    else next.due = now + settings.timeoutSeconds + (next.attempts === 1 ? 60 : 120);
  }
  return outcome;
}

describe('ingestion under its reservation of one', () => {
  // The scheduled run and an operator's asynchronous invoke at the same moment, and the next hour's run.
  const arrivals = [
    { event: 'scheduled', at: 0 },
    { event: 'manual', at: 0 },
    { event: 'next hour', at: 3600 },
  ];

  it('never runs two at once, and gives every event all its attempts before it grows too old', () => {
    const settings = ingestSettings(s);
    expect(settings.reserved).toBe(1);
    const outcome = replayAsyncQueue(settings, arrivals);
    expect(outcome.expired).toEqual([]);
    const attempts = 1 + settings.retryAttempts;
    for (const { event } of arrivals) expect(outcome.runs.filter((r) => r.event === event)).toHaveLength(attempts);
    const starts = outcome.runs.map((r) => r.start).sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) {
      expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(settings.timeoutSeconds);
    }
  });

  it('would drop the event waiting behind another run if the maximum age covered only one event and its retries', () => {
    // 1,000 s: the scheduled event's own three attempts start within 780 s, the manual one waits until 1,111 s.
    const settings = { ...ingestSettings(s), maxEventAgeSeconds: 1000 };
    expect(replayAsyncQueue(settings, arrivals).expired).toEqual(['manual']);
  });
});
