/**
 * The count a release alarm divides: every 5xx answer of a released function writes exactly one Embedded Metric
 * Format line naming the function and the version that answered, and no other answer writes one. The real handler
 * chains and the real authorizer entry, with Lambda's environment variables as Lambda sets them; the lines are read
 * as CloudWatch extracts EMF (test/support/embedded-metrics.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import type { DashboardEndpoint } from '../../../lambdas/core/dashboard/endpoint';
import { generateApiKey } from '../../../lambdas/core/domain/api-key';
import { InvalidParameterError, ServiceUnavailableError } from '../../../lambdas/core/domain/errors';
import { apiHandler } from '../../../lambdas/core/http/api-handler';
import { encodeAccess } from '../../../lambdas/core/http/authorizer-context';
import { dashboardHandler } from '../../../lambdas/core/http/dashboard-handler';
import { type HttpResponse, successResponse } from '../../../lambdas/core/http/responses';
import { METRIC_NAMESPACE, RELEASE_METRICS, SERVICE_NAME } from '../../../lambdas/core/metric-names';
import { DYNAMODB_ENDPOINT_ENV } from '../../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../../lambdas/core/store/tables';
import { extractMetrics } from '../../support/embedded-metrics';

const LAMBDA_ENV = {
  AWS_LAMBDA_FUNCTION_NAME: 'FxratesService-ApiLatestFunction-Q1w2E3',
  AWS_LAMBDA_FUNCTION_VERSION: '7',
};

/** Every line the process writes while `run` runs, to stdout or through console.log, that claims to be EMF. */
async function emfLines(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (text: unknown) => {
    for (const line of String(text).split('\n')) if (line.includes('"_aws"')) lines.push(line);
  };
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    keep(chunk);
    return true;
  });
  const log = jest.spyOn(console, 'log').mockImplementation(keep);
  try {
    await run();
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
  return lines;
}

const saved: Record<string, string | undefined> = {};
function setEnv(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    if (!(name in saved)) saved[name] = process.env[name];
    process.env[name] = value;
  }
}
beforeEach(() => setEnv({ ...LAMBDA_ENV, POWERTOOLS_METRICS_DISABLED: 'false' }));
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function expectOneServerError(lines: string[]) {
  expect(lines).toHaveLength(1);
  const { metrics, rejected } = extractMetrics(lines);
  expect(rejected).toEqual([]);
  expect(metrics).toEqual([
    expect.objectContaining({
      namespace: METRIC_NAMESPACE,
      name: RELEASE_METRICS.serverErrors,
      values: [1],
      dimensions: {
        service: SERVICE_NAME,
        function: LAMBDA_ENV.AWS_LAMBDA_FUNCTION_NAME,
        version: LAMBDA_ENV.AWS_LAMBDA_FUNCTION_VERSION,
      },
    }),
  ]);
}

// --- the public API's chain ---------------------------------------------------------------------------------------

/** The context the authorizer hands an endpoint for a valid key with the given meter verdict. */
function accessFor(verdict: 'admitted' | 'rate-limit-exceeded'): Record<string, string> {
  const used = verdict === 'admitted' ? 1 : 61;
  return encodeAccess({
    verdict,
    accountId: 'acc-1',
    plan: 'free',
    limits: { monthlyLimit: 1000, overflowAllowed: false, overflowPercent: 0, perMinute: 60 },
    meter: { verdict, plan: 'Free', minuteLimit: 60, minuteUsed: used, monthLimit: 1000, monthUsed: used, at: 0 },
  });
}
const admitted = accessFor('admitted');

function apiEvent(authorizer: Record<string, string>): APIGatewayProxyEvent {
  return {
    requestContext: { requestId: 'req-1', authorizer },
    headers: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
  } as unknown as APIGatewayProxyEvent;
}

const answerOf = (respond: () => Promise<HttpResponse>) => apiHandler('latest', respond);

describe('an endpoint of the public API', () => {
  it('writes one ServerErrors line with its function and version for an unexpected failure answered 500', async () => {
    let status = 0;
    const lines = await emfLines(async () => {
      status = (await answerOf(async () => Promise.reject(new Error('boom')))(apiEvent(admitted), {} as Context))
        .statusCode;
    });
    expect(status).toBe(500);
    expectOneServerError(lines);
  });

  it('writes one for its own 503 (its store failed it)', async () => {
    let status = 0;
    const lines = await emfLines(async () => {
      const handler = answerOf(async () => Promise.reject(new ServiceUnavailableError('the store failed', 5)));
      status = (await handler(apiEvent(admitted), {} as Context)).statusCode;
    });
    expect(status).toBe(503);
    expectOneServerError(lines);
  });

  it('writes none for a 200, a 400 or a 429', async () => {
    const statuses: number[] = [];
    const limited = accessFor('rate-limit-exceeded');
    const lines = await emfLines(async () => {
      statuses.push((await answerOf(async () => successResponse({}))(apiEvent(admitted), {} as Context)).statusCode);
      const refused = answerOf(async () => Promise.reject(new InvalidParameterError('base', 'bad base')));
      statuses.push((await refused(apiEvent(admitted), {} as Context)).statusCode);
      statuses.push((await answerOf(async () => successResponse({}))(apiEvent(limited), {} as Context)).statusCode);
    });
    expect(statuses).toEqual([200, 400, 429]);
    expect(lines).toEqual([]);
  });

  it("writes none for the 503 that relays the authorizer's unavailable verdict: the authorizer counts that one", async () => {
    let status = 0;
    const lines = await emfLines(async () => {
      status = (await answerOf(async () => successResponse({}))(apiEvent({ verdict: 'unavailable' }), {} as Context))
        .statusCode;
    });
    expect(status).toBe(503);
    expect(lines).toEqual([]);
  });

  it('writes none outside Lambda, where no version runs', async () => {
    delete process.env.AWS_LAMBDA_FUNCTION_VERSION;
    const lines = await emfLines(() =>
      answerOf(async () => Promise.reject(new Error('boom')))(apiEvent(admitted), {} as Context),
    );
    expect(lines).toEqual([]);
  });
});

// --- the dashboard's chain ------------------------------------------------------------------------------------------

function dashboardEvent(): APIGatewayProxyEvent {
  const claims = { sub: 'user-1', email: 'a@example.com', email_verified: 'true' };
  return {
    requestContext: { requestId: 'req-2', authorizer: { claims } },
    headers: {},
  } as unknown as APIGatewayProxyEvent;
}

describe('an endpoint of the dashboard API', () => {
  it('writes one line for a 500 and none for a 200 or a refusal', async () => {
    const run = (endpoint: DashboardEndpoint) => dashboardHandler('account', endpoint)(dashboardEvent(), {} as Context);
    const statuses: number[] = [];
    const failed = await emfLines(async () => {
      statuses.push((await run(async () => Promise.reject(new Error('boom')))).statusCode);
    });
    const fine = await emfLines(async () => {
      statuses.push((await run(async () => successResponse({}))).statusCode);
      statuses.push((await run(async () => Promise.reject(new InvalidParameterError('name', 'bad')))).statusCode);
    });
    expect(statuses).toEqual([500, 200, 400]);
    expectOneServerError(failed);
    expect(fine).toEqual([]);
  });
});

// --- the authorizer --------------------------------------------------------------------------------------------------

describe('the authorizer', () => {
  // A DynamoDB endpoint on loopback that answers every call with `fail`'s status and error type.
  type Handler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
  let server: Server | undefined;
  let fail = { status: 500, type: 'InternalServerError' };
  let handler: Handler;

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(fail.status, { 'Content-Type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${fail.type}`, message: fail.type }));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    setEnv({
      [DYNAMODB_ENDPOINT_ENV]: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      [ACCOUNTS_TABLE.envVar]: 'accounts',
    });
    // The entry builds its authorizer when loaded, from the environment above.
    handler = (await import('../../../lambdas/authorizer/handler')).handler as Handler;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const request = (headers: Record<string, string>) =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/v1/GET/latest',
      resource: '/latest',
      headers,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      requestContext: { requestId: 'req-3' },
    }) as unknown as APIGatewayRequestAuthorizerEvent;
  const key = generateApiKey((n) => Buffer.alloc(n, 7));

  it('writes one line for its unavailable verdict (503), from a store that answers 500', async () => {
    fail = { status: 500, type: 'InternalServerError' };
    let result: APIGatewayAuthorizerResult | undefined;
    const lines = await emfLines(async () => {
      result = await handler(request({ 'X-API-Key': key }));
    });
    expect(result?.context?.verdict).toBe('unavailable');
    expectOneServerError(lines.filter((line) => line.includes(RELEASE_METRICS.serverErrors)));
  });

  it("writes none for a thrown error, which is Lambda's Errors, nor for a missing key's 401", async () => {
    fail = { status: 400, type: 'ResourceNotFoundException' };
    const lines = await emfLines(async () => {
      await expect(handler(request({ 'X-API-Key': key }))).rejects.toThrow();
      const denied = await handler(request({}));
      expect(denied.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    });
    expect(lines.filter((line) => line.includes(RELEASE_METRICS.serverErrors))).toEqual([]);
  });
});
