import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { LimitOverrides, PlanId } from '../../../lambdas/core/domain/plans';
import { decodeAccess } from '../../../lambdas/core/http/authorizer-context';
import {
  AUTHORIZER_METRICS,
  DECISION_FIELDS,
  METRIC_DIMENSIONS,
  METRIC_NAMESPACE,
  NO_PLAN,
  SERVICE_NAME,
} from '../../../lambdas/core/metric-names';
import { AccountsStore } from '../../../lambdas/core/store/accounts-store';
import { DYNAMODB_ENDPOINT_ENV } from '../../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../../lambdas/core/store/tables';
import * as synth from '../../infra/synth';
import { backends, freshTables, type TestTables } from '../../support/backends';
import { contributors, type InsightRuleBody, KEY_SEPARATOR } from '../../support/contributor-insights';
import { extractMetrics } from '../../support/embedded-metrics';
import { consoleEvent, type LambdaLogFormat } from '../../support/lambda-console';
import { buildFunctionBundle, type LambdaLogProcess, startLambdaLogProcess } from '../../support/lambda-log-process';
import { discoveredFields, fieldsReadBy } from '../../support/logs-insights';

// Synthesis, two bundle builds and a cold SDK in a child process.
jest.setTimeout(180_000);

type RuleName = 'requests' | 'refusals' | 'quota';
const RULES: readonly RuleName[] = ['requests', 'refusals', 'quota'];

let s: synth.Synthesized;
let dir: string;
let bundle: string;
let tables: TestTables;
const backend = backends().find((b) => b.name === 'dynamodb-local') ?? backends()[0];

/** The rule bodies, the dashboard's queries, the function's settings and the quota alarm, as synthesized. */
const template = {
  rule(name: RuleName): InsightRuleBody {
    const rule = s.fx.service.monitoring.insightRules[name];
    return JSON.parse(
      synth.renderJoin(
        synth.propsOf(synth.resourcesOf(s.service, 'AWS::CloudWatch::InsightRule')[synth.logicalIdOf(rule)]).RuleBody,
      ),
    ) as InsightRuleBody;
  },
  ruleName(name: RuleName): string {
    return `<${synth.logicalIdOf(s.fx.service.monitoring.insightRules[name])}.RuleName>`;
  },
  authorizer(): Record<string, unknown> {
    const fn = s.fx.service.api.authorizerFunction.function;
    return synth.propsOf(synth.resourcesOf(s.service, 'AWS::Lambda::Function')[synth.logicalIdOf(fn)]);
  },
  authorizerLogGroup(): string {
    return `<Ref:${synth.logicalIdOf(s.fx.service.api.authorizerFunction.logGroup)}>`;
  },
  logQueries(): string[] {
    const [dashboard] = Object.values(synth.resourcesOf(s.service, 'AWS::CloudWatch::Dashboard'));
    const body = JSON.parse(synth.renderJoin(dashboard?.Properties?.DashboardBody)) as {
      widgets: { type: string; properties: { query?: string } }[];
    };
    return body.widgets.flatMap((w) => (w.type === 'log' && w.properties.query ? [w.properties.query] : []));
  },
  quotaAlarm(): { threshold: number; expression: string } {
    const alarm = s.fx.service.monitoring.alarms.quota;
    if (!alarm) throw new Error('no quota alarm');
    const props = synth.propsOf(synth.resourcesOf(s.service, 'AWS::CloudWatch::Alarm')[synth.logicalIdOf(alarm)]);
    const metrics = props.Metrics as { Expression?: unknown }[];
    return {
      threshold: Number(props.Threshold),
      expression: metrics.map((m) => synth.renderJoin(m.Expression)).join(' '),
    };
  },
};

/** The authorizer's environment as the template sets it, its table reference pointed at this test's table. */
function functionEnvironment(): Record<string, string> {
  const variables = (template.authorizer().Environment as { Variables: Record<string, unknown> }).Variables;
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (name === ACCOUNTS_TABLE.envVar) environment[name] = tables.accountsTable;
    else if (typeof value === 'string') environment[name] = value;
    else
      throw new Error(`${name} is set from the template by ${JSON.stringify(value)}, which this test cannot resolve`);
  }
  return {
    ...environment,
    // What Lambda sets itself, and the one local addition: the store's endpoint. The region is the test's own,
    // since DynamoDB Local keeps a database per region.
    AWS_REGION: process.env.AWS_REGION ?? 'local',
    AWS_LAMBDA_FUNCTION_NAME: 'authorizer',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    [DYNAMODB_ENDPOINT_ENV]: backend?.endpoint ?? '',
  };
}

beforeAll(async () => {
  if (!backend) throw new Error('no DynamoDB backend');
  s = synth.synthesize({ ...synth.SKIP_BUNDLING });
  dir = mkdtempSync(join(tmpdir(), 'fxrates-log-lines-'));
  bundle = await buildFunctionBundle('authorizer', dir);
  tables = await freshTables(backend);
});

afterAll(() => {
  s?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function requestEvent(requestId: string, key?: string) {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-central-1:123456789012:abcdef1234/v1/GET/rates/latest',
    resource: '/rates/latest',
    path: '/v1/rates/latest',
    httpMethod: 'GET',
    headers: key === undefined ? {} : { 'X-API-Key': key },
    multiValueHeaders: null,
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { requestId, resourcePath: '/rates/latest' },
  };
}

/**
 * Resolves at least 15 s before the minute ends: each format's requests then fall in one minute, so the per-minute
 * refusal and the one quota sample per account and minute come out as planned.
 */
async function earlyInMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_050 - intoMinute));
}

const verdictOf = (answer: unknown) => decodeAccess((answer as APIGatewayAuthorizerResult).context)?.verdict;

it('runs under the log format the functions are deployed with: Lambda’s default, Text', () => {
  expect((template.authorizer().LoggingConfig as { LogFormat?: string }).LogFormat ?? 'Text').toBe('Text');
});

describe.each<LambdaLogFormat>(['Text', 'JSON'])('the authorizer bundle under Lambda’s %s log format', (logFormat) => {
  let fn: LambdaLogProcess;
  const ids = { steady: '', burst: '', full: '' };
  const answers: Record<string, string | undefined> = {};

  beforeAll(async () => {
    const store = new AccountsStore(tables.client, tables.accountsTable, {
      clock: () => new Date(),
      randomBytes: (n) => randomBytes(n),
    });
    const account = async (plan: PlanId, overrides: LimitOverrides) => {
      const created = await store.createAccount({ plan, verified: true, overrides });
      return { accountId: created.accountId, key: (await store.createKey(created.accountId, 'log lines')).key };
    };
    // Pro without overflow: its limit is the 1,000 set here, so three requests are 0.1 % of it at the first.
    const steady = await account('pro', { perMinute: 1_000, monthlyLimit: 1_000, overflowPercent: 0 });
    // One request a minute: the second is refused by the per-minute limit.
    const burst = await account('free', { perMinute: 1, monthlyLimit: 10 });
    // One request a month: the first uses all of it (a quota sample of 100 %), the second is refused.
    const full = await account('free', { perMinute: 100, monthlyLimit: 1 });
    Object.assign(ids, { steady: steady.accountId, burst: burst.accountId, full: full.accountId });

    fn = await startLambdaLogProcess({ bundle, environment: functionEnvironment(), logFormat, dir });
    await earlyInMinute();
    const plan: [string, string | undefined][] = [
      ['steady-1', steady.key],
      ['steady-2', steady.key],
      ['steady-3', steady.key],
      ['burst-1', burst.key],
      ['burst-2', burst.key],
      ['full-1', full.key],
      ['full-2', full.key],
      ['missing', undefined],
      ['invalid', 'fxr_not-a-key'],
    ];
    for (const [requestId, key] of plan) {
      answers[requestId] = verdictOf(await fn.invoke(requestEvent(requestId, key), `${logFormat}-${requestId}`));
    }
  });

  afterAll(() => fn?.close());

  const on = (account: keyof typeof ids, ...rest: string[]) => [ids[account], ...rest].join(KEY_SEPARATOR);

  it('decides as planned: admitted, refused per minute and per month, and keyless', () => {
    expect(answers).toMatchObject({
      'steady-1': 'admitted',
      'steady-3': 'admitted',
      'burst-1': 'admitted',
      'burst-2': 'rate-limit-exceeded',
      'full-1': 'admitted',
      'full-2': 'quota-exceeded',
    });
  });

  it('stores each decision line as the JSON object itself, beside the platform’s lines', () => {
    const decisions = fn.events.filter((event) => event.includes(`"${DECISION_FIELDS.verdict}"`));
    expect(decisions).toHaveLength(9);
    for (const line of decisions) expect(JSON.parse(line)).toHaveProperty('_aws');
    expect(fn.events.some((event) => event.includes(`${logFormat}-steady-1`))).toBe(true);
  });

  it('gives each Contributor Insights rule the contributions it is meant to find', () => {
    for (const name of RULES) {
      expect(template.rule(name).LogGroupNames).toEqual([template.authorizerLogGroup()]);
    }
    expect(contributors(template.rule('requests'), fn.events)).toEqual({
      [on('steady', 'Pro')]: 3,
      [on('burst', 'Free')]: 2,
      [on('full', 'Free')]: 2,
    });
    expect(contributors(template.rule('refusals'), fn.events)).toEqual({
      [on('burst', 'rate-limit-exceeded')]: 1,
      [on('full', 'quota-exceeded')]: 1,
    });
    expect(contributors(template.rule('quota'), fn.events)).toEqual({
      [on('steady', 'Pro')]: 0.1,
      [on('burst', 'Free')]: 10,
      [on('full', 'Free')]: 100,
    });
  });

  it('lets the near-quota alarm see the account at its limit', () => {
    const alarm = template.quotaAlarm();
    expect(alarm.expression).toContain(`INSIGHT_RULE_METRIC('${template.ruleName('quota')}', 'Maximum')`);
    const samples = Object.values(contributors(template.rule('quota'), fn.events));
    expect(Math.max(...samples)).toBeGreaterThanOrEqual(alarm.threshold);
  });

  it('yields the Requests metric of every decision through Embedded Metric Format', () => {
    const { metrics, rejected } = extractMetrics(fn.events);
    expect(rejected).toEqual([]);
    const requests = metrics.filter((m) => m.name === AUTHORIZER_METRICS.requests);
    for (const metric of requests) {
      expect(metric).toMatchObject({ namespace: METRIC_NAMESPACE, unit: 'Count', values: [1] });
      expect(metric.dimensions[METRIC_DIMENSIONS.service]).toBe(SERVICE_NAME);
    }
    const counts: Record<string, number> = {};
    for (const { dimensions } of requests) {
      const key = `${dimensions[METRIC_DIMENSIONS.plan]}/${dimensions[METRIC_DIMENSIONS.verdict]}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect(counts).toEqual({
      'Pro/admitted': 3,
      'Free/admitted': 2,
      'Free/rate-limit-exceeded': 1,
      'Free/quota-exceeded': 1,
      [`${NO_PLAN}/missing-api-key`]: 1,
      [`${NO_PLAN}/invalid-api-key`]: 1,
    });
  });

  it('holds every field the dashboard’s Logs Insights queries read', () => {
    const queries = template.logQueries();
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      const fields = fieldsReadBy(query);
      expect(fields).toEqual(expect.arrayContaining([DECISION_FIELDS.accountId, DECISION_FIELDS.percentUsed]));
      const lines = fn.events.map(discoveredFields).filter((found) => DECISION_FIELDS.percentUsed in found);
      expect(lines).toHaveLength(7);
      for (const found of lines) expect(Object.keys(found)).toEqual(expect.arrayContaining(fields));
    }
  });

  it('would catch lines written through console.log: stored that way, no rule and no metric finds anything', () => {
    // The same lines as the runtime stores a console.log of them (the writer before this change).
    const throughConsole = fn.events
      .filter((event) => event.startsWith('{') && !event.includes('"platform.'))
      .map((line, i) => consoleEvent(logFormat, new Date(), `${logFormat}-old-${i}`, 'INFO', [line]));
    expect(throughConsole.length).toBeGreaterThanOrEqual(9);
    for (const name of RULES) expect(contributors(template.rule(name), throughConsole)).toEqual({});
    expect(extractMetrics(throughConsole).metrics).toEqual([]);
  });
});
