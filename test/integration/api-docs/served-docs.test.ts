import { buildOpenApiDocument } from '../../../api-docs/openapi';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../../../lambdas/core/http/dashboard-routes';
import { API_BASE_PATH, ROUTES } from '../../../lambdas/core/http/routes';
import { useTestApi } from '../../support/api-service';

/** The reference on the local server: outside /v1, without a key, built from the same generator. */
describe('the API reference on the local server', () => {
  const test = useTestApi();
  const get = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, test.api.service.url), { redirect: 'manual', ...init });

  it('serves GET /openapi.json without a key, as JSON, equal to the generated document', async () => {
    const r = await get('/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('x-request-id')).toBeTruthy();
    const doc = (await r.json()) as { openapi: string };
    expect(doc).toEqual(buildOpenApiDocument());
    expect(doc.openapi).toBe('3.1.0');
  });

  it('serves GET /docs/ without a key, as HTML naming every operation, and redirects /docs there', async () => {
    const r = await get('/docs/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await r.text();
    expect(html).toMatch(/^<!doctype html>/);
    for (const route of ROUTES) {
      expect(html).toContain(`id="op-${route.id}"`);
      expect(html).toContain(`${route.method}</span> <code class="path">${API_BASE_PATH}${route.path}</code>`);
    }
    for (const route of DASHBOARD_ROUTES) {
      expect(html).toContain(`id="op-${route.id}"`);
      expect(html).toContain(`${route.method}</span> <code class="path">${DASHBOARD_BASE_PATH}${route.path}</code>`);
    }
    expect(html).toContain('href="../openapi.json"');

    const redirect = await get('/docs');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    expect((await get('/docs/?utm=x')).status).toBe(200);
  });

  it('answers HEAD like GET, and with a key the pages stay the same', async () => {
    const head = await get('/openapi.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const keyed = await get('/docs/', { headers: { 'X-API-Key': test.key } });
    expect(keyed.status).toBe(200);
  });

  it('leaves everything else as it was: other methods, other paths and the API keep their answers', async () => {
    for (const [method, path] of [
      ['POST', '/openapi.json'],
      ['DELETE', '/docs/'],
      ['GET', '/docs/index.html'],
      ['GET', '/v1/openapi.json'],
      ['GET', '/v1/docs/'],
      ['GET', '/openapi.yaml'],
    ] as const) {
      const r = await get(path, { method });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      expect(await r.json()).toEqual({ success: false, error: { code: 'not-found', message: 'No such endpoint.' } });
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    const missingKey = await get('/v1/rates/latest');
    expect(missingKey.status).toBe(401);
    const ok = await get('/v1/rates/latest', { headers: { 'X-API-Key': test.key } });
    expect(ok.status).toBe(200);
  });
});
