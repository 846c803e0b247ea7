import { buildSite, OPENAPI_FILE, REFERENCE_PAGE_CSP, REFERENCE_PAGE_FILE } from '../api-docs/site';
import type { StaticPage } from './gateway';

/** Where the reference is served: outside the versioned API, without a key. `/docs` redirects to `/docs/`. */
export const OPENAPI_PATH = `/${OPENAPI_FILE}`;
export const DOCS_PATH = '/docs/';

/**
 * The OpenAPI document and the reference page, built once from the code (api-docs/): the local server's own
 * addition, which API Gateway does not serve. The page has no scripts and loads nothing.
 */
export function documentationPages(): ReadonlyMap<string, StaticPage> {
  const site = buildSite();
  const common = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
  const html = { ...common, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': REFERENCE_PAGE_CSP };
  return new Map([
    [
      OPENAPI_PATH,
      { headers: { ...common, 'Content-Type': 'application/json; charset=utf-8' }, body: site[OPENAPI_FILE] },
    ],
    [DOCS_PATH, { headers: html, body: site[REFERENCE_PAGE_FILE] }],
    [DOCS_PATH.slice(0, -1), { headers: { ...common, Location: DOCS_PATH }, body: '' }],
  ]);
}
