import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpenApiDocument, DASHBOARD_SECURITY_SCHEME, DASHBOARD_TAG } from '../../../api-docs/openapi';
import { renderReferencePage } from '../../../api-docs/reference-page';
import { BREAKPOINT_PX } from '../../../api-docs/reference-page-style';
import { buildSite, ICON_SOURCE, OPENAPI_FILE, REFERENCE_PAGE_CSP, REFERENCE_PAGE_FILE } from '../../../api-docs/site';
import { ERROR_CATALOG } from '../../../lambdas/core/domain/errors';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../../../lambdas/core/http/dashboard-routes';
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

  const sectionOf = (id: string) => {
    const start = html.indexOf(`id="op-${id}"`);
    expect(start).toBeGreaterThan(0);
    return html.slice(start, html.indexOf('</article>', start));
  };

  it.each(DASHBOARD_ROUTES.map((route) => [route.id, route] as const))(
    '%s: its /api path, summary, every status and code, and a curl example with the ID token',
    (_, route) => {
      const section = sectionOf(route.id);
      expect(section).toContain(`${route.method}</span> <code class="path">${DASHBOARD_BASE_PATH}${route.path}</code>`);
      expect(section).toContain(route.summary.replace(/'/g, '&#39;'));
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        expect(section).toContain(`>${status}</span>`);
        for (const code of response['x-error-codes'] ?? []) expect(section).toContain(`href="#error-${code}"`);
      }
      expect(section).toContain(`Response body (${route.successStatus})`);
      const curl = /<pre class="scroll shell"[^>]*>(curl [^<]*)<\/pre>/.exec(section)?.[1] ?? '';
      expect(curl).toContain('-H &quot;Authorization: Bearer $TOKEN&quot;');
      expect(curl).not.toContain('X-API-Key');
      expect(curl.includes(`-X ${route.method}`)).toBe(route.method !== 'GET');
      expect(curl).toMatch(new RegExp(`&quot;\\$DASHBOARD_API${route.path.replace(/\{\w+\}/g, 'key_\\w+')}&quot;$`));
      expect(section.includes('<h4>Request body</h4>')).toBe(route.body);
      if (route.body) expect(curl).toContain('-d &#39;{&quot;name&quot;:');
    },
  );

  it('gives the dashboard API its own section: who calls it, its base URL, its token, in the navigation too', () => {
    const start = html.indexOf(`id="tag-${DASHBOARD_TAG.toLowerCase().replace(/ /g, '-')}"`);
    expect(start).toBeGreaterThan(0);
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(section).toContain('<h2>Account dashboard</h2>');
    expect(section).toContain('not for API-key clients');
    expect(section).toContain('A key is shown once');
    expect(section).toContain('refused by the public API within 60 seconds');
    expect(section).toContain(`Base URL: <code>${DASHBOARD_BASE_PATH}</code>`);
    expect(section).toContain(`Authentication: <code>${DASHBOARD_SECURITY_SCHEME}</code>`);
    expect(section).toContain('<code>401 unauthenticated</code>');
    for (const route of DASHBOARD_ROUTES) expect(section).toContain(`id="op-${route.id}"`);
    const nav = html.slice(html.indexOf('<nav '), html.indexOf('</nav>'));
    expect(nav).toContain(`<h2>${DASHBOARD_TAG}</h2>`);
    // A narrow column breaks the path before a slash, not inside a word.
    expect(nav).toContain(`<span class="p">${DASHBOARD_BASE_PATH}<wbr>/keys<wbr>/{keyId}</span>`);
    // The public operations keep the key and the document's server.
    expect(sectionOf('quota')).not.toContain('Authorization');
    expect(html.slice(0, start)).not.toContain('DASHBOARD_API');
  });

  it('lists the fields of arrays of objects and of the request body', () => {
    const list = sectionOf('keys-list');
    expect(list).toContain('<code>data.keys</code></td><td><code class="type">array of objects</code>');
    expect(list).toContain('<code>data.keys[].prefix</code></td><td><code class="type">string | null');
    const create = sectionOf('keys-create');
    const body = create.slice(create.indexOf('<h4>Request body</h4>'), create.indexOf('<h4>Example request</h4>'));
    expect(body).toContain('<code>name</code></td><td><code class="type">string (pattern');
    expect(body).toContain('at most 64 characters');
  });

  it('explains authentication, the rate-limit headers and every error code', () => {
    expect(html).toContain('id="authentication"');
    for (const name of ['X-RateLimit-Limit-Minute', 'RateLimit-Policy', 'RateLimit', 'Retry-After', 'X-Request-Id']) {
      expect(html).toContain(`<code>${name}</code>`);
    }
    for (const code of Object.keys(ERROR_CATALOG)) expect(html).toContain(`id="error-${code}"`);
  });

  it('carries the site icon inline in the built page, the one thing its CSP lets it show beside its style', () => {
    expect(html).not.toContain('rel="icon"');
    const built = buildSite()[REFERENCE_PAGE_FILE];
    const links = [...built.matchAll(/<link [^>]*>/g)].map((m) => m[0]);
    expect(links).toHaveLength(1);
    const href = /^<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,([^"]+)">$/.exec(links[0] ?? '');
    expect(decodeURIComponent(href?.[1] ?? '')).toBe(readFileSync(ICON_SOURCE, 'utf8').trim());
    expect(built).not.toMatch(/<script|<img|<iframe|@import|url\(|\ssrc=/i);
    expect(REFERENCE_PAGE_CSP.split('; ').sort()).toEqual([
      "base-uri 'none'",
      "default-src 'none'",
      "form-action 'none'",
      'img-src data:',
      "style-src 'unsafe-inline'",
    ]);
  });

  it('puts every table and every block of code in its own labelled, focusable scroll region', () => {
    const tables = html.match(/<table/g) ?? [];
    const wrapped = html.match(/<div class="scroll" tabindex="0" role="region" aria-label="[^"]+"><table/g) ?? [];
    expect(tables.length).toBeGreaterThan(20);
    expect(wrapped).toHaveLength(tables.length);
    const pres = html.match(/<pre[^>]*>/g) ?? [];
    expect(pres.length).toBeGreaterThan(10);
    for (const pre of pres)
      expect(pre).toMatch(/^<pre class="scroll[^"]*" tabindex="0" role="region" aria-label="[^"]+">$/);
    // Screen readers list regions by name: no two share one.
    const labels = [...html.matchAll(/role="region" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('never skips a heading level on the way down', () => {
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    const skips = levels.flatMap((level, i) =>
      i > 0 && level > (levels[i - 1] ?? 0) + 1 ? [[levels[i - 1], level]] : [],
    );
    expect(skips).toEqual([]);
  });

  it('offers one navigation, a disclosure the wide layout keeps open, and a way past it', () => {
    expect(html.match(/<nav[\s>]/g)).toHaveLength(1);
    expect(html).toContain('<nav id="contents" aria-label="Contents"><details class="toc"><summary>Contents</summary>');
    expect(html).toContain('<a class="skip" href="#reference">Skip to the reference</a>');
    expect(html).toContain('<main id="reference">');
    expect(html).toContain('<a class="to-contents" href="#contents">Contents</a></main>');
    expect(html).toContain(`@media (min-width: ${BREAKPOINT_PX}px)`);
  });

  it('escapes what it prints', () => {
    const tampered = structuredClone(doc);
    tampered.info.summary = '<b>bold</b> & "quoted"';
    expect(renderReferencePage(tampered)).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
  });
});
