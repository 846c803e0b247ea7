/**
 * The account dashboard as static files, built in memory: the CDK construct uploads them, the local server
 * serves them, and `npm run build:web [-- OUT_DIR]` writes them (dist/web by default). This module imports
 * esbuild and node built-ins only, so the CDK app and the local server pay little to load it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSync, stop as stopEsbuild } from 'esbuild';

const WEB_DIR = import.meta.dirname;
const REPOSITORY = resolve(WEB_DIR, '..');

/** Where the start build (bin/built.mjs) keeps the page's files, in its own directory, for the local server to read. */
export const START_BUILD_SITE_DIR = 'dashboard-site';

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

/** One file of the site, and the files it was built from, relative to the repository. */
function bundle(entry: string, loader: 'ts' | 'css'): { text: string; inputs: string[] } {
  const result = buildSync({
    absWorkingDir: REPOSITORY,
    entryPoints: [join(WEB_DIR, entry)],
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
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
  return { text: file.text, inputs: Object.keys(result.metafile.inputs) };
}

/**
 * Every file of the site by its path relative to the site's root, and every file they were built from (relative
 * to the repository), by which the start build tells when to build them again. esbuild answers `buildSync` from a
 * thread of its own, which it keeps for the next call until the process ends; the site is built once per process
 * (a synth, a start build, a local server run from the sources), so the thread is stopped when the files are built,
 * and a later build starts another.
 */
export function buildDashboardSite(): { files: Record<DashboardFile, string>; inputs: string[] } {
  try {
    const script = bundle('src/main.ts', 'ts');
    const style = bundle('app.css', 'css');
    const copy = (name: DashboardFile) => readFileSync(join(WEB_DIR, name), 'utf8');
    const copied = ['index.html', 'favicon.svg'].map((name) => relative(REPOSITORY, join(WEB_DIR, name)));
    return {
      files: {
        'index.html': copy('index.html'),
        'app.js': script.text,
        'app.css': style.text,
        'favicon.svg': copy('favicon.svg'),
      },
      inputs: [...new Set([...script.inputs, ...style.inputs, ...copied])].sort(),
    };
  } finally {
    void stopEsbuild();
  }
}

/** The site's files (buildDashboardSite). */
export function buildDashboardFiles(): Record<DashboardFile, string> {
  return buildDashboardSite().files;
}

/** The site's files as `writeDashboardFiles` left them under `dir`. */
export function readDashboardFiles(dir: string): Record<DashboardFile, string> {
  const names = Object.keys(DASHBOARD_FILES_CONTENT_TYPES) as DashboardFile[];
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name), 'utf8')])) as Record<
    DashboardFile,
    string
  >;
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
