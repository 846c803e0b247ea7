import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpenApiDocument } from '../../../api-docs/openapi';
import { renderReferencePage } from '../../../api-docs/reference-page';
import { buildSite, OPENAPI_FILE, REFERENCE_PAGE_FILE } from '../../../api-docs/site';
import { ERROR_CATALOG } from '../../../lambdas/core/domain/errors';
import { API_BASE_PATH, ROUTES } from '../../../lambdas/core/http/routes';

const ROOT = resolve(__dirname, '../../..');

describe('npm run build:docs', () => {
  it('writes exactly what the generator makes: openapi.json and docs/index.html', () => {
    const out = mkdtempSync(join(tmpdir(), 'fxrates-site-'));
    try {
      const run = spawnSync('npm', ['run', '--silent', 'build:docs', '--', out], { cwd: ROOT, encoding: 'utf8' });
      expect(run.stderr.replace(/^npm warn .*\n/gm, '')).toBe('');
      expect(run.status).toBe(0);
      const site = buildSite();
      expect(readFileSync(join(out, OPENAPI_FILE), 'utf8')).toBe(site[OPENAPI_FILE]);
      expect(readFileSync(join(out, REFERENCE_PAGE_FILE), 'utf8')).toBe(site[REFERENCE_PAGE_FILE]);
      expect(JSON.parse(site[OPENAPI_FILE])).toEqual(buildOpenApiDocument());
      expect(readdirSync(out).sort()).toEqual(['docs', 'openapi.json']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the reference page', () => {
  const doc = buildOpenApiDocument();
  const html = renderReferencePage(doc);

  it('is self-contained: inline style, no scripts, nothing loaded from anywhere', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\ssrc=/i);
    // Links go to anchors on the page and to the document beside it, never to another host.
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.filter((href) => !href.startsWith('#') && href !== '../openapi.json')).toEqual([]);
    const anchors = new Set([...html.matchAll(/id="([^"]*)"/g)].map((m) => m[1]));
    for (const href of hrefs.filter((h) => h.startsWith('#'))) expect(anchors).toContain(href.slice(1));
  });

  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s: path, summary, parameters with their defaults, every status and code, a curl example',
    (_, route) => {
      const start = html.indexOf(`id="op-${route.id}"`);
      expect(start).toBeGreaterThan(0);
      const section = html.slice(start, html.indexOf('</article>', start));
      expect(section).toContain(`${route.method}</span> <code class="path">${API_BASE_PATH}${route.path}</code>`);
      expect(section).toContain(route.summary.replace(/'/g, '&#39;'));
      const operation = doc.paths[route.path]?.get;
      for (const p of operation?.parameters ?? []) {
        expect(section).toContain(`<code>${p.name}</code>`);
        if (p.schema.default !== undefined) expect(section).toContain(`<code>${p.schema.default}</code>`);
      }
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        expect(section).toContain(`>${status}</span>`);
        for (const code of response['x-error-codes'] ?? []) expect(section).toContain(`href="#error-${code}"`);
      }
      expect(section).toMatch(/curl -i -H &quot;X-API-Key: \$KEY&quot; &quot;\$BASE\//);
      if (route.etag) expect(section).toContain('If-None-Match');
    },
  );

  it('explains authentication, the rate-limit headers and every error code', () => {
    expect(html).toContain('id="authentication"');
    for (const name of ['X-RateLimit-Limit-Minute', 'RateLimit-Policy', 'RateLimit', 'Retry-After', 'X-Request-Id']) {
      expect(html).toContain(`<code>${name}</code>`);
    }
    for (const code of Object.keys(ERROR_CATALOG)) expect(html).toContain(`id="error-${code}"`);
  });

  it('escapes what it prints', () => {
    const tampered = structuredClone(doc);
    tampered.info.summary = '<b>bold</b> & "quoted"';
    expect(renderReferencePage(tampered)).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
  });
});
