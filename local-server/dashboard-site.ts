/**
 * The dashboard page as the local server serves it: the same built files CloudFront serves on AWS, the same
 * Content-Security-Policy, and a config.json that points the page at the local Cognito emulator instead of
 * Cognito.
 */
import { join } from 'node:path';
import {
  buildDashboardFiles,
  contentTypeOf,
  type DashboardFile,
  dashboardCsp,
  readDashboardFiles,
  START_BUILD_SITE_DIR,
} from '../web/build';
import type { PageConfig } from '../web/src/config';
import { builtDir } from './built';
import type { StaticPage } from './gateway';

export const CONFIG_PATH = '/config.json';

function headersFor(path: string, csp: string): Record<string, string> {
  return {
    'Content-Type': contentTypeOf(path),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': csp,
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
}

/**
 * The page's files: run from the start build, those it built with the server's modules (bin/built.mjs); run from
 * the sources, built now (esbuild, a few hundred milliseconds, which stops the thread it started: web/build.ts).
 */
function siteFiles(): Record<DashboardFile, string> {
  const built = builtDir();
  return built ? readDashboardFiles(join(built, START_BUILD_SITE_DIR)) : buildDashboardFiles();
}

/** The page's built files by path, `/` serving index.html. */
export function dashboardFiles(cognitoEndpoint: string): Map<string, StaticPage> {
  const csp = dashboardCsp(cognitoEndpoint);
  const pages = new Map<string, StaticPage>();
  for (const [name, body] of Object.entries(siteFiles())) {
    pages.set(`/${name}`, { headers: headersFor(name, csp), body });
  }
  const index = pages.get('/index.html');
  if (!index) throw new Error('the dashboard build has no index.html');
  pages.set('/', index);
  return pages;
}

/** The files with the page's config added. */
export function withConfig(files: ReadonlyMap<string, StaticPage>, config: PageConfig): Map<string, StaticPage> {
  const csp = dashboardCsp(config.cognito.endpoint);
  return new Map([
    ...files,
    [CONFIG_PATH, { headers: headersFor(CONFIG_PATH, csp), body: `${JSON.stringify(config)}\n` }],
  ]);
}
