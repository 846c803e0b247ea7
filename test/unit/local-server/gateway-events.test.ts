import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { headerValue } from '../../../lambdas/core/http/headers';
import { matchRoute } from '../../../lambdas/core/http/routes';
import {
  describeRequest,
  lambdaContext,
  policyAllows,
  proxyReply,
  stringifyContext,
} from '../../../local-server/gateway-events';

const API = { accountId: '000000000000', apiId: 'local', stage: 'v1', requestId: 'req-1' };
const ARN = 'arn:aws:execute-api:local:000000000000:local/v1/GET/rates/latest';

function described(url: string, headers: Record<string, string | string[] | undefined>) {
  const target = new URL(`http://local.invalid${url}`);
  const match = matchRoute(target.pathname.slice('/v1'.length));
  if (!match) throw new Error(`no route for ${url}`);
  return describeRequest({ method: 'GET', url, headers }, target, match, API);
}

/** A header map parsed the way Node's parser leaves one: names are data, whatever they spell. */
function parsedHeaders(entries: [string, string | string[]][]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return headers;
}

describe('the events the local gateway builds', () => {
  it('keeps a header named __proto__ as a plain header in both maps', () => {
    const { event } = described(
      '/v1/rates/latest',
      parsedHeaders([
        ['__proto__', 'polluted'],
        ['x-api-key', 'fxr_key'],
      ]),
    );
    expect(Object.getPrototypeOf(event.headers)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(event.headers)).toEqual(['__proto__', 'x-api-key']);
    expect(Object.getOwnPropertyDescriptor(event.headers, '__proto__')?.value).toBe('polluted');
    expect(Object.getOwnPropertyDescriptor(event.multiValueHeaders, '__proto__')?.value).toEqual(['polluted']);
    expect(headerValue(event.headers, '__proto__')).toBe('polluted');
    expect(headerValue(event.headers, 'X-API-Key')).toBe('fxr_key');
  });

  it('gives a repeated header its last value in headers and all of them in multiValueHeaders', () => {
    const { event } = described('/v1/rates/latest', { accept: ['text/csv', 'application/json'], host: 'h' });
    expect(event.headers).toEqual({ accept: 'application/json', host: 'h' });
    expect(event.multiValueHeaders).toEqual({ accept: ['text/csv', 'application/json'], host: ['h'] });
  });

  it('leaves both query maps null without a query, a lone ? included', () => {
    for (const url of ['/v1/rates/latest', '/v1/rates/latest?']) {
      const { event } = described(url, {});
      expect(event.queryStringParameters).toBeNull();
      expect(event.multiValueQueryStringParameters).toBeNull();
    }
  });

  it('reads a repeated query parameter as its last value and as the list of all', () => {
    const { event } = described('/v1/rates/latest?base=USD&base=GBP&symbols=EUR', {});
    expect(event.queryStringParameters).toEqual({ base: 'GBP', symbols: 'EUR' });
    expect(event.multiValueQueryStringParameters).toEqual({ base: ['USD', 'GBP'], symbols: ['EUR'] });
  });

  it('names each function in its own context, with the request id of the call', () => {
    const first = lambdaContext('history', 'req-1');
    const again = lambdaContext('history', 'req-2');
    const other = lambdaContext('authorizer', 'req-3');
    expect(first.invokedFunctionArn).toBe('arn:aws:lambda:local:000000000000:function:history');
    expect(first.logGroupName).toBe('/aws/lambda/history');
    expect(again.awsRequestId).toBe('req-2');
    expect(again.invokedFunctionArn).toBe(first.invokedFunctionArn);
    expect(other.invokedFunctionArn).toBe('arn:aws:lambda:local:000000000000:function:authorizer');
    expect(other.logGroupName).toBe('/aws/lambda/authorizer');
    expect(other.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });
});

describe("the local gateway's reading of an authorizer's answer", () => {
  const verdict = (statements: unknown[]): APIGatewayAuthorizerResult =>
    ({ principalId: 'p', policyDocument: { Version: '2012-10-17', Statement: statements } }) as never;

  it.each([
    ['one action and one resource as strings', true, { Effect: 'Allow', Action: 'execute-api:Invoke', Resource: ARN }],
    ['lists of them', true, { Effect: 'Allow', Action: ['s3:GetObject', 'execute-api:*'], Resource: ['x', ARN] }],
    ['a wildcard resource', true, { Effect: 'Allow', Action: '*', Resource: 'arn:aws:execute-api:local:*' }],
    ['another action only', false, { Effect: 'Allow', Action: 's3:GetObject', Resource: ARN }],
    ['another resource only', false, { Effect: 'Allow', Action: 'execute-api:Invoke', Resource: `${ARN}x` }],
    ['no action', false, { Effect: 'Allow', Resource: ARN }],
    ['no resource', false, { Effect: 'Allow', Action: 'execute-api:Invoke' }],
  ])('reads an Allow with %s as allowing the call: %s', (_what, allowed, statement) => {
    expect(policyAllows(verdict([statement]), ARN)).toBe(allowed);
  });

  it('lets a matching Deny win over an Allow, whatever their order', () => {
    const allow = { Effect: 'Allow', Action: 'execute-api:Invoke', Resource: ARN };
    const deny = { Effect: 'Deny', Action: 'execute-api:Invoke', Resource: '*' };
    expect(policyAllows(verdict([allow, deny]), ARN)).toBe(false);
    expect(policyAllows(verdict([deny, allow]), ARN)).toBe(false);
  });

  it('passes context values on as strings and leaves out null and undefined ones', () => {
    const context = { plan: 'pro', used: 12, flag: true, none: null, unset: undefined } as never;
    expect(stringifyContext(context)).toEqual({ plan: 'pro', used: '12', flag: 'true' });
    expect(stringifyContext(undefined)).toEqual({});
  });

  it("sends a function's header values on as strings, and no body as empty", () => {
    const reply = proxyReply({
      statusCode: 304,
      headers: { ETag: '"e"', 'Content-Length': 0, Vary: true } as never,
      body: undefined as never,
    });
    expect(reply).toEqual({ statusCode: 304, headers: { ETag: '"e"', 'Content-Length': '0', Vary: 'true' }, body: '' });
  });
});
