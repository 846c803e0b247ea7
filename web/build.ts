/**
 * The account dashboard as static files, built in memory: the CDK construct uploads them, the local server
 * serves them, and `npm run build:web [-- OUT_DIR]` writes them (dist/web by default). This module imports
 * esbuild and node built-ins only, so the CDK app and the local server pay little to load it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildSync, stop as stopEsbuild } from 'esbuild';

const WEB_DIR = import.meta.dirname;

export const DEFAULT_OUT_DIR = resolve(WEB_DIR, '../dist/web');

/** The browsers the bundle is written for: those with <dialog>, ResizeObserver and the Clipboard API. */
const BROWSER_TARGETS = ['chrome100', 'edge100', 'firefox100', 'safari15.4'];

export const DASHBOARD_FILES_CONTENT_TYPES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export type DashboardFile = keyof typeof DASHBOARD_FILES_CONTENT_TYPES;

const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  json: 'application/json; charset=utf-8',
};

/** The Content-Type to serve a file of the site with, by its extension; octet-stream for an unknown one. */
export function contentTypeOf(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return TYPES_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/**
 * The Content-Security-Policy both hosts send with the page: scripts, styles and images from the page's own
 * origin only (no inline code, no third party), network calls to the page's origin and Cognito's, and no framing,
 * form targets or base URL. `cognito` may be the endpoint URL from config.json or its bare origin.
 */
export function dashboardCsp(cognito: string): string {
  let origin: string;
  try {
    origin = new URL(cognito).origin;
  } catch {
    throw new Error(`dashboardCsp: ${JSON.stringify(cognito)} is not a URL`);
  }
  if (!/^https?:\/\/[^\s;,'"]+$/.test(origin)) {
    throw new Error(`dashboardCsp: ${JSON.stringify(cognito)} has no http(s) origin`);
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function bundle(entry: string, loader: 'ts' | 'css'): string {
  const result = buildSync({
    entryPoints: [join(WEB_DIR, entry)],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: BROWSER_TARGETS,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    loader: { [`.${loader}`]: loader },
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild wrote nothing for ${entry}`);
  return file.text;
}

/**
 * Every file of the site by its path relative to the site's root. esbuild answers `buildSync` from a thread of its
 * own, which it keeps for the next call until the process ends; the site is built once per process (a synth, the
 * local server's start), so the thread is stopped when the files are built, and a later build starts another.
 */
export function buildDashboardFiles(): Record<DashboardFile, string> {
  try {
    return {
      'index.html': readFileSync(join(WEB_DIR, 'index.html'), 'utf8'),
      'app.js': bundle('src/main.ts', 'ts'),
      'app.css': bundle('app.css', 'css'),
      'favicon.svg': readFileSync(join(WEB_DIR, 'favicon.svg'), 'utf8'),
    };
  } finally {
    void stopEsbuild();
  }
}

/** Writes the site under `outDir`; returns the paths written. */
export function writeDashboardFiles(outDir: string, files: Record<string, string> = buildDashboardFiles()): string[] {
  return Object.entries(files).map(([name, content]) => {
    const path = join(outDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  });
}

// Run as a command, not when the CDK app, the local server or a test imports the module.
if (process.argv[1] === import.meta.filename) {
  try {
    for (const path of writeDashboardFiles(resolve(process.argv[2] ?? DEFAULT_OUT_DIR))) console.log(`wrote ${path}`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
