import { createHash } from 'node:crypto';
import { type ApiRequest, conditionalGet } from '../../../lambdas/core/http/middleware';
import { ROUTES } from '../../../lambdas/core/http/routes';

const route = ROUTES.find((one) => one.etag);
if (!route) throw new Error('no route with an ETag');

const sha1 = (body: string) => `"${createHash('sha1').update(body).digest('base64url')}"`;

function answered(body: string, ifNoneMatch?: string) {
  return {
    event: { headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {} },
    response: { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body },
  } as unknown as ApiRequest;
}

describe('conditionalGet', () => {
  it("tags each body with its own hash, whichever body came before (it keeps the last body's hash)", async () => {
    const middleware = conditionalGet(route);
    const bodies = ['{"a":1}', '{"a":1}', '{"b":2}', '{"a":1}', ''];
    for (const body of bodies) {
      const request = answered(body);
      await middleware.after?.(request);
      expect(request.response?.headers.ETag).toBe(sha1(body));
    }
  });

  it('answers 304 with no body when If-None-Match names the current hash, and 200 after the body changed', async () => {
    const middleware = conditionalGet(route);
    const first = answered('{"a":1}', sha1('{"a":1}'));
    await middleware.after?.(first);
    expect(first.response).toMatchObject({ statusCode: 304, body: '' });
    const changed = answered('{"a":2}', sha1('{"a":1}'));
    await middleware.after?.(changed);
    expect(changed.response).toMatchObject({ statusCode: 200, body: '{"a":2}' });
    expect(changed.response?.headers.ETag).toBe(sha1('{"a":2}'));
  });
});
