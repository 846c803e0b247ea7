import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildDashboardFiles, contentTypeOf, DASHBOARD_FILES_CONTENT_TYPES, dashboardCsp } from '../../../web/build';

const files = buildDashboardFiles();
const html = files['index.html'];

/** Every src and href of the page, with the tag that carries it. */
function references(page: string): { tag: string; attribute: string; value: string }[] {
  return [...page.matchAll(/<(\w+)\b[^>]*?\s(src|href)="([^"]*)"/g)].map((match) => ({
    tag: match[1] ?? '',
    attribute: match[2] ?? '',
    value: match[3] ?? '',
  }));
}

const isSameOrigin = (value: string) => !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//');

describe('the built dashboard', () => {
  it('has the page, its script, its stylesheet and its icon, none of them empty', () => {
    expect(Object.keys(files).sort()).toEqual(['app.css', 'app.js', 'favicon.svg', 'index.html']);
    for (const content of Object.values(files)) expect(content.length).toBeGreaterThan(100);
    expect(html).toMatch(/^<!doctype html>/i);
  });

  it('loads only its own files, by relative path, and each of them is in the build', () => {
    const refs = references(html);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(isSameOrigin(ref.value)).toBe(true);
    const assets = refs.filter((ref) => ref.tag === 'script' || ref.tag === 'link').map((ref) => ref.value);
    expect(assets.sort()).toEqual(['app.css', 'app.js', 'favicon.svg']);
    for (const asset of assets) expect(Object.keys(files)).toContain(asset);
  });

  it('has no inline script, event handler or style, which the CSP would block', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts).toHaveLength(1);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it("keeps only the tab's session in browser storage and builds no markup from strings", () => {
    const script = files['app.js'];
    expect(script).not.toMatch(/localStorage|document\.cookie|indexedDB/);
    // One sessionStorage entry: the refresh token that lets a reload of the tab renew its session.
    expect(script.match(/sessionStorage\.\w+/g)?.sort()).toEqual([
      'sessionStorage.getItem',
      'sessionStorage.removeItem',
      'sessionStorage.setItem',
    ]);
    expect(script).toContain('"fxrates.dashboard.session"');
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(script).not.toMatch(/\beval\(|new Function\(/);
  });

  it('calls no third-party address: the only absolute URL in the script is the SVG namespace', () => {
    const urls = new Set(files['app.js'].match(/https?:\/\/[^\s"'`)]+/g) ?? []);
    expect([...urls]).toEqual(['http://www.w3.org/2000/svg']);
    expect(files['app.css']).not.toMatch(/url\(|@import|https?:/);
  });

  it('ships minified code', () => {
    expect(files['app.js'].split('\n').length).toBeLessThan(5);
    expect(files['app.css'].split('\n').length).toBeLessThan(5);
  });

  it('weighs well under the 150 KB first-load budget, gzipped', () => {
    const firstLoad = ['index.html', 'app.js', 'app.css'] as const;
    const gzipped = firstLoad.reduce((sum, name) => sum + gzipSync(files[name], { level: 9 }).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
    // The page is meant to be tens of kilobytes; a framework slipping in would show here first.
    expect(gzipped).toBeLessThan(40 * 1024);
  });
});

describe('serving the dashboard', () => {
  it('gives each built file a content type', () => {
    for (const name of Object.keys(files)) {
      expect(DASHBOARD_FILES_CONTENT_TYPES[name as keyof typeof DASHBOARD_FILES_CONTENT_TYPES]).toBe(
        contentTypeOf(name),
      );
    }
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('app.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('app.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('config.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('thing.bin')).toBe('application/octet-stream');
  });

  it('sends a strict CSP that lets the page reach only itself and Cognito', () => {
    expect(dashboardCsp('https://cognito-idp.eu-west-1.amazonaws.com/')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
        "connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com; base-uri 'none'; form-action 'none'; " +
        "frame-ancestors 'none'",
    );
  });

  it("reduces the Cognito endpoint to its origin, the local emulator's port included", () => {
    expect(dashboardCsp('http://127.0.0.1:9229/')).toContain("connect-src 'self' http://127.0.0.1:9229;");
    expect(dashboardCsp('http://127.0.0.1:9229')).toContain("connect-src 'self' http://127.0.0.1:9229;");
  });

  it('refuses an origin that is no http(s) URL, so nothing can be injected into the policy', () => {
    expect(() => dashboardCsp("https://x; script-src 'unsafe-inline'")).toThrow();
    expect(() => dashboardCsp('data:text/plain,x')).toThrow(/no http\(s\) origin/);
    expect(() => dashboardCsp('')).toThrow(/not a URL/);
  });
});

describe('building the dashboard', () => {
  it('stops the thread esbuild built in, which esbuild would keep until the process ends', async () => {
    // In a process of its own: Node reports each thread it starts ('worker'), and whether it ends, to that process.
    const script = `
      import { buildDashboardFiles } from ${JSON.stringify(join(__dirname, '../../../web/build.ts'))};
      const threads = [];
      process.on('worker', (worker) => threads.push(new Promise((ended) => worker.once('exit', () => ended(true)))));
      const files = buildDashboardFiles();
      // Node tells of a new thread after the call that started it has returned.
      await new Promise((resolve) => setImmediate(resolve));
      let timer;
      const waited = new Promise((resolve) => { timer = setTimeout(() => resolve(false), 5000); });
      const ended = await Promise.all(threads.map((thread) => Promise.race([thread, waited])));
      clearTimeout(timer);
      console.log(JSON.stringify({ files: Object.keys(files).length, ended }));`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual({ files: 4, ended: [true] });
  }, 30_000);
});
