/**
 * Runs a command of the project (the server, the admin CLI) as JavaScript built from the sources, so that its process
 * carries no TypeScript loader (whose hooks thread, one per thread of the server, held about 36 MiB each, and whose
 * esbuild service processes stayed running); an admin CLI command starts in about a third of the time it took under
 * the loader.
 *
 * One build serves every command: esbuild builds bin/serve.ts, bin/admin.ts, the store thread, and the endpoint
 * modules the server loads by name, sharing their common code, into .cache/start in the repository (gitignored). It
 * is made again only when a file it was built from (the packages' files it bundles included), or the set of entry
 * files, changed: about 1.5 s on a first run, about 20 ms of checking after that (a thousand files looked at, so
 * that a package patched by hand in node_modules is built again too). The dashboard page is built with it, by
 * web/build.ts, and kept beside it, so a start serves the page without building it. Each source file keeps its own
 * location for `import.meta.dirname` and `import.meta.url`, so paths the code builds from them (the bundled data, the
 * web sources) are the same as under the loader. The esbuild service is stopped once the build is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

// A build makes the dashboard page with esbuild's synchronous API (web/build.ts). By default that runs esbuild in a
// worker thread with a service process that outlives the build (stopping it leaves the process unreaped); with this,
// each page build is one esbuild process, started and reaped within the call. Set before esbuild is first loaded.
process.env.ESBUILD_WORKER_THREADS ??= '0';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, '.cache', 'start');
/** Names the build in use: builds are written to a directory of their own, then named here by a rename. */
const CURRENT = join(CACHE, 'current');
const STAMP = 'inputs.json';
/** A build this much older than the current one is removed (no start still loading it). */
const STALE_BUILD_MS = 10 * 60_000;
/** The scripts that run a build; a change to one of them makes the build again. */
const LAUNCHERS = ['bin/built.mjs', 'bin/start.mjs', 'bin/admin.mjs'];

/** The commands, the store thread, and every module service.ts may import by path (local-server/built.ts). */
function entryPoints() {
  const folder = (dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir}/${name}`);
  return [
    'bin/serve.ts',
    'bin/admin.ts',
    'local-server/store-thread.ts',
    'web/build.ts',
    ...folder('lambdas/core/endpoints'),
    ...folder('lambdas/core/dashboard'),
  ];
}

function fingerprint(file) {
  try {
    const { mtimeMs, size } = statSync(join(ROOT, file));
    return `${mtimeMs}:${size}`;
  } catch {
    return 'missing';
  }
}

/** The current build's directory and what it was built from, if there is one. */
function currentBuild() {
  try {
    const dir = join(CACHE, readFileSync(CURRENT, 'utf8').trim());
    return { dir, stamp: JSON.parse(readFileSync(join(dir, STAMP), 'utf8')) };
  } catch {
    return undefined;
  }
}

function upToDate(stamp, entries, version) {
  if (!stamp || stamp.version !== version || stamp.node !== process.version) return false;
  if (JSON.stringify(stamp.entries) !== JSON.stringify(entries)) return false;
  return Object.entries(stamp.inputs).every(([file, seen]) => fingerprint(file) === seen);
}

/** Each source file's own `import.meta.dirname`, `.filename` and `.url`, as they are when it runs from the sources. */
const keepSourceLocations = {
  name: 'keep-source-locations',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents: source, loader: 'ts' };
    });
  },
};

/**
 * Packages the build leaves in node_modules, loaded from there as they come: dynalite (a native LevelDB addon and
 * files it requires by name), cognito-local and the logger it brings, and esbuild (its own binary). Every other
 * package (the AWS SDK, middy, zod) is bundled: loaded from node_modules it was hundreds of files, each resolved and
 * read on every start, which was most of an admin CLI command's time.
 */
const EXTERNAL_PACKAGES = ['dynalite', 'cognito-local', 'pino', 'esbuild'];

const packageName = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');

export const bundleOtherPackages = {
  name: 'bundle-other-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      EXTERNAL_PACKAGES.includes(packageName(args.path)) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * What bundled CommonJS code require()s from outside the build, a Node built-in included. An ES module has no
 * require(), so each such call would throw when it ran: the build is refused instead.
 */
export function leftOutRequires(metafile) {
  const required = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.external && imported.kind === 'require-call')
    .map((imported) => imported.path);
  return [...new Set(required)].sort();
}

/**
 * Builds into a new directory and makes it current by renaming a file, so that servers starting at the same time
 * (each may build) never load a half-written build; older builds are removed once they are stale.
 */
async function build(entries) {
  const name = `build-${Date.now()}-${process.pid}`;
  const out = join(CACHE, name);
  const esbuild = await import('esbuild');
  try {
    mkdirSync(out, { recursive: true });
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: entries,
      outdir: out,
      outbase: ROOT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      // Packages' ES module builds, as the functions' bundles take them (lib/bundling.ts).
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'warning',
      plugins: [bundleOtherPackages, keepSourceLocations],
    });
    const required = leftOutRequires(result.metafile);
    if (required.length > 0) {
      throw new Error(
        `the build would require() ${required.join(', ')} from an ES module; ` +
          'keep the package that does so external (EXTERNAL_PACKAGES in bin/built.mjs)',
      );
    }
    const inputs = Object.fromEntries(
      Object.keys(result.metafile.inputs)
        .map((file) => relative(ROOT, join(ROOT, file)))
        .map((file) => [file, fingerprint(file)]),
    );
    for (const launcher of LAUNCHERS) inputs[launcher] = fingerprint(launcher);
    // The dashboard page too, by web/build.ts from this very build, so that a start reads its files instead of
    // running esbuild: a few hundred milliseconds, and a process that a Ctrl-C in the terminal would end as well.
    const site = await import(pathToFileURL(join(out, 'web', 'build.js')).href);
    const page = site.buildDashboardSite();
    site.writeDashboardFiles(join(out, site.START_BUILD_SITE_DIR), page.files);
    for (const file of page.inputs) inputs[file] ??= fingerprint(file);
    writeFileSync(
      join(out, STAMP),
      JSON.stringify({ version: esbuild.version, node: process.version, entries, inputs }),
    );
  } finally {
    await esbuild.stop();
  }
  writeFileSync(`${CURRENT}.${process.pid}`, name);
  renameSync(`${CURRENT}.${process.pid}`, CURRENT);
  for (const old of readdirSync(CACHE)) {
    const path = join(CACHE, old);
    if (old.startsWith('build-') && old !== name && Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
  return out;
}

/**
 * Makes sure the build is current (building it if not), then runs `command` (such as `bin/serve`) from it. The
 * build's directory is left in a global, where local-server/built.ts finds the server's other modules.
 */
export async function runBuilt(command) {
  const entries = entryPoints();
  const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
  const current = currentBuild();
  const built =
    current && existsSync(join(current.dir, `${command}.js`)) && upToDate(current.stamp, entries, esbuildVersion)
      ? current.dir
      : await build(entries);
  globalThis[Symbol.for('fxrates.builtDir')] = built;
  await import(pathToFileURL(join(built, `${command}.js`)).href);
}
