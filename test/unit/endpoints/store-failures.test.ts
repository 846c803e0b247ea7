import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { endpoint as history } from '../../../lambdas/core/endpoints/history';
import { endpoint as latest } from '../../../lambdas/core/endpoints/latest';
import { apiHandler } from '../../../lambdas/core/http/api-handler';
import { logger } from '../../../lambdas/core/observability';
import { RateReader, type SnapshotSource } from '../../../lambdas/core/service/rate-reader';

/**
 * How the rate endpoints answer a store read that fails: the errors below have the shape the AWS SDK gives them
 * (name, $metadata.httpStatusCode) or Node's network errors (code), as they reach the endpoint on Lambda.
 */
function sdkError(name: string, status: number): Error {
  return Object.assign(new Error(`${name} from DynamoDB`), { name, $metadata: { httpStatusCode: status } });
}

const OUTAGES: [string, Error][] = [
  ['throttling past the retries', sdkError('ProvisionedThroughputExceededException', 400)],
  ['a DynamoDB 500', sdkError('InternalServerError', 500)],
  ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' })],
  ['a request timeout', Object.assign(new Error('socket timed out'), { name: 'TimeoutError' })],
];

const DEPLOYMENT_FAULTS: [string, Error][] = [
  ['a missing table', sdkError('ResourceNotFoundException', 400)],
  ['a refused permission', sdkError('AccessDeniedException', 400)],
  ['a malformed request', sdkError('ValidationException', 400)],
];

class FailingSource implements SnapshotSource {
  constructor(private readonly error: Error) {}
  async getLatest(): Promise<undefined> {
    throw this.error;
  }
  async getDay(): Promise<undefined> {
    throw this.error;
  }
}

function event(path: Record<string, string> | null = null): APIGatewayProxyEvent {
  return {
    requestContext: {
      requestId: 'req-store',
      authorizer: { verdict: 'admitted', accountId: 'acc-1', plan: 'business' },
    },
    headers: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: path,
  } as unknown as APIGatewayProxyEvent;
}

const clock = () => new Date('2026-09-15T10:20:19Z');
const handlers = (error: Error) => ({
  latest: () =>
    apiHandler('latest', latest.create({ reader: new RateReader(new FailingSource(error), clock), clock }))(
      event(),
      {} as Context,
    ),
  history: () =>
    apiHandler('history', history.create({ reader: new RateReader(new FailingSource(error), clock), clock }))(
      event({ from: 'EUR', to: 'USD', date: '2026-09-14' }),
      {} as Context,
    ),
});

describe('a rate store read that fails', () => {
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  describe.each(OUTAGES)('on %s', (_, failure) => {
    it.each(['latest', 'history'] as const)(
      '%s answers 503 service-unavailable with Retry-After, logged as a warning',
      async (route) => {
        const response = await handlers(failure)[route]();
        expect(response.statusCode).toBe(503);
        expect(JSON.parse(response.body).error.code).toBe('service-unavailable');
        expect(response.headers?.['Retry-After']).toBe('5');
        expect(warn).toHaveBeenCalledWith('rate store unavailable: answered 503', { error: failure });
        expect(error).not.toHaveBeenCalled();
      },
    );
  });

  describe.each(DEPLOYMENT_FAULTS)('on %s', (_, failure) => {
    it.each(['latest', 'history'] as const)(
      '%s answers 500 internal-error without Retry-After, logged as an error with its cause',
      async (route) => {
        const response = await handlers(failure)[route]();
        expect(response.statusCode).toBe(500);
        expect(JSON.parse(response.body)).toEqual({
          success: false,
          error: { code: 'internal-error', message: 'An unexpected error occurred.' },
        });
        expect(response.headers?.['Retry-After']).toBeUndefined();
        expect(error).toHaveBeenCalledWith('unhandled error', { requestId: 'req-store', error: failure });
        expect(warn).not.toHaveBeenCalled();
      },
    );
  });
});
