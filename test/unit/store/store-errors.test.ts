import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { isStoreUnavailable } from '../../../lambdas/core/store/store-errors';

const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

describe('isStoreUnavailable', () => {
  it('reads timeouts, throttling past the retries, network errors and 5xx as the store being unavailable', () => {
    const unavailable: unknown[] = [
      Object.assign(new Error('request timed out'), { name: 'TimeoutError' }),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' }),
      new ProvisionedThroughputExceededException({ message: 'slow down', ...meta(400) }),
      new RequestLimitExceeded({ message: 'account limit', ...meta(400) }),
      Object.assign(new Error('throttled'), { name: 'ThrottlingException', ...meta(400) }),
      new InternalServerError({ message: 'oops', ...meta(500) }),
      Object.assign(new Error('bad gateway'), { name: 'UnknownError', ...meta(502) }),
      Object.assign(new Error('too many'), { name: 'UnknownError', ...meta(429) }),
      // A wrapped one, as the SDK's retry quota or a transport may wrap the cause.
      Object.assign(new Error('gave up'), { cause: Object.assign(new Error('t'), { name: 'TimeoutError' }) }),
      // One that crossed a thread boundary as a plain object.
      { name: 'ProvisionedThroughputExceededException', message: 'slow down' },
    ];
    for (const error of unavailable)
      expect({ error, unavailable: isStoreUnavailable(error) }).toMatchObject({ unavailable: true });
  });

  it('reads a deployment fault or a bug as something else: those stay errors (500)', () => {
    const faults: unknown[] = [
      new ResourceNotFoundException({ message: 'Requested resource not found', ...meta(400) }),
      Object.assign(new Error('not authorized'), { name: 'AccessDeniedException', ...meta(400) }),
      Object.assign(new Error('bad expression'), { name: 'ValidationException', ...meta(400) }),
      new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta(400) }),
      new TypeError("Cannot read properties of undefined (reading 'S')"),
      'a string',
      undefined,
      null,
    ];
    for (const error of faults)
      expect({ error, unavailable: isStoreUnavailable(error) }).toMatchObject({ unavailable: false });
  });

  it('stops following causes after a few levels', () => {
    const loop: { name: string; cause?: unknown } = { name: 'Error' };
    loop.cause = loop;
    expect(isStoreUnavailable(loop)).toBe(false);
  });
});
