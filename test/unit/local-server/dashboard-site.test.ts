import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardFiles } from '../../../local-server/dashboard-site';
import { DASHBOARD_FILES_CONTENT_TYPES, START_BUILD_SITE_DIR } from '../../../web/build';

/** Where bin/built.mjs tells the server's modules which build they run from (local-server/built.ts). */
const BUILT_DIR = Symbol.for('fxrates.builtDir');
const globals = globalThis as { [BUILT_DIR]?: string };

describe("the local server's dashboard page", () => {
  let build: string;

  beforeEach(() => {
    build = mkdtempSync(join(tmpdir(), 'fxrates-site-'));
  });

  afterEach(() => {
    delete globals[BUILT_DIR];
    rmSync(build, { recursive: true, force: true });
  });

  it('serves the files the start build kept, without building them, when it runs from that build', () => {
    const site = join(build, START_BUILD_SITE_DIR);
    mkdirSync(site);
    for (const name of Object.keys(DASHBOARD_FILES_CONTENT_TYPES)) writeFileSync(join(site, name), `kept ${name}`);
    globals[BUILT_DIR] = build;
    const pages = dashboardFiles('http://127.0.0.1:9229');
    expect(pages.get('/app.js')?.body).toBe('kept app.js');
    expect(pages.get('/')?.body).toBe('kept index.html');
    expect(pages.get('/app.css')?.headers['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('builds them from the sources when it runs from the sources', () => {
    const pages = dashboardFiles('http://127.0.0.1:9229');
    expect(pages.get('/')?.body).toMatch(/^<!doctype html>/i);
    expect(pages.get('/app.js')?.body.length).toBeGreaterThan(1000);
  });
});
