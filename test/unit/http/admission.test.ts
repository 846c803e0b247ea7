import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { endpoint as latest } from '../../../lambdas/core/endpoints/latest';
import { apiHandler } from '../../../lambdas/core/http/api-handler';
import { ROUTES } from '../../../lambdas/core/http/routes';
import { RateReader, type SnapshotSource } from '../../../lambdas/core/service/rate-reader';

const RATE_LIMIT_HEADERS = /^(x-ratelimit-|ratelimit)/i;

function event(authorizer: Record<string, string>, query: Record<string, string> | null = null): APIGatewayProxyEvent {
  return {
    requestContext: { requestId: 'req-503', authorizer },
    headers: {},
    queryStringParameters: query,
    multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])),
    pathParameters: null,
  } as unknown as APIGatewayProxyEvent;
}

/** A rate store that counts every read: an endpoint that did any work would read it. */
class CountingSource implements SnapshotSource {
  reads = 0;
  async getLatest() {
    this.reads++;
    return undefined;
  }
  async getDay() {
    this.reads++;
    return undefined;
  }
}

describe('admission of an unavailable store (an Allow that grants nothing)', () => {
  it.each(ROUTES.map((route) => route.id))(
    'answers 503 with Retry-After on %s before the endpoint runs',
    async (route) => {
      let ran = false;
      const handler = apiHandler(route, async () => {
        ran = true;
        throw new Error('the endpoint must not run');
      });
      // Bad parameters too: the verdict is rendered before any input is read.
      const response = await handler(event({ verdict: 'unavailable' }, { base: '??', amount: '-1' }), {} as Context);
      expect(ran).toBe(false);
      expect(response.statusCode).toBe(503);
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        error: { code: 'service-unavailable', message: 'The service is temporarily unavailable; please retry later.' },
      });
      expect(response.headers).toMatchObject({
        'Retry-After': '5',
        'X-Request-Id': 'req-503',
        'Cache-Control': 'no-store',
      });
      expect(Object.keys(response.headers).filter((name) => RATE_LIMIT_HEADERS.test(name))).toEqual([]);
    },
  );

  it('reads no rates: the real endpoint module, over a store that counts reads', async () => {
    const source = new CountingSource();
    const clock = () => new Date('2026-09-15T10:20:19Z');
    const handler = apiHandler('latest', latest.create({ reader: new RateReader(source, clock), clock }));
    const response = await handler(event({ verdict: 'unavailable', accountId: 'acc-1', plan: 'pro' }), {} as Context);
    expect(response.statusCode).toBe(503);
    expect(source.reads).toBe(0);
    // The same handler does read once the store is back and the request admitted (here: no rates yet, a 503 too).
    await handler(event({ verdict: 'admitted' }), {} as Context);
    expect(source.reads).toBeGreaterThan(0);
  });

  it('fails closed on a verdict it does not know: 500 without running the endpoint', async () => {
    let ran = false;
    const handler = apiHandler('latest', async () => {
      ran = true;
      throw new Error('the endpoint must not run');
    });
    const response = await handler(event({ verdict: 'store-down' }), {} as Context);
    expect(response.statusCode).toBe(500);
    expect(ran).toBe(false);
  });
});
