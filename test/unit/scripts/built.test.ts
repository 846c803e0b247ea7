import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..', '..');

interface Built {
  /** Packages whose files esbuild read into the output. */
  bundled: string[];
  /** What the output imports from outside it, built-ins left out. */
  external: string[];
  leftOutRequires: string[];
}

/** Runs `script` (an ES module) in a fresh Node process from the repository, and parses the JSON it prints. */
async function printedJson(script: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  return JSON.parse(stdout);
}

/**
 * Bundles `source` in a fresh Node process (bin/built.mjs is an ES module, which jest's CommonJS cannot import) with
 * the start build's package rule, and reports what went where.
 */
async function bundle(source: string): Promise<Built> {
  const script = `
    import { builtinModules } from 'node:module';
    import * as esbuild from 'esbuild';
    import { bundleOtherPackages, leftOutRequires } from './bin/built.mjs';
    const result = await esbuild.build({
      stdin: { contents: ${JSON.stringify(source)}, resolveDir: process.cwd() },
      bundle: true, format: 'esm', platform: 'node', mainFields: ['module', 'main'],
      write: false, metafile: true, outdir: 'out', logLevel: 'silent', plugins: [bundleOtherPackages],
    });
    await esbuild.stop();
    const packageOf = (path) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(path)?.[1];
    const builtIn = (path) => path.startsWith('node:') || builtinModules.includes(path);
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
    console.log(JSON.stringify({
      bundled: [...new Set(Object.keys(result.metafile.inputs).map(packageOf).filter(Boolean))].sort(),
      external: [...new Set(imports.filter((i) => i.external && !builtIn(i.path)).map((i) => i.path))].sort(),
      leftOutRequires: leftOutRequires(result.metafile),
    }));`;
  return (await printedJson(script)) as Built;
}

/**
 * Script lines that make the start build current and import its `web/build` module as `site` (from the build in
 * `dir`); they need `join` and `pathToFileURL` imported. web/build is an entry of the build and runs nothing when
 * imported, so "running" it only makes the build current.
 */
const BUILT_SITE = `
      import { runBuilt } from './bin/built.mjs';
      await runBuilt('web/build');
      const dir = globalThis[Symbol.for('fxrates.builtDir')];
      const site = await import(pathToFileURL(join(dir, 'web', 'build.js')).href);`;

describe('the build npm start and the admin CLI run from', () => {
  it("holds the dashboard's files, built from the sources it lists among its inputs, so a start need not build them", async () => {
    const script = `
      import { readFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { pathToFileURL } from 'node:url';
      ${BUILT_SITE}
      const kept = site.readDashboardFiles(join(dir, site.START_BUILD_SITE_DIR));
      const inputs = Object.keys(JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')).inputs);
      console.log(JSON.stringify({
        same: JSON.stringify(kept) === JSON.stringify(site.buildDashboardFiles()),
        inputs: inputs.filter((file) => file.startsWith('web/')),
      }));`;
    const result = (await printedJson(script)) as { same: boolean; inputs: string[] };
    expect(result.same).toBe(true);
    expect(result.inputs).toEqual(
      expect.arrayContaining(['web/src/main.ts', 'web/src/views/keys.ts', 'web/app.css', 'web/index.html']),
    );
  }, 60_000);

  it('builds the dashboard page without leaving an esbuild process unreaped, whichever command builds', async () => {
    // The command's launcher loads bin/built.mjs and nothing else first; a page build then ends its esbuild process
    // within the call. Through esbuild's worker thread, the stopped process would stay a zombie until Node exits.
    const script = `
      import { readdirSync, readFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { pathToFileURL } from 'node:url';
      ${BUILT_SITE}
      const files = Object.keys(site.buildDashboardSite().files).length;
      const children = () => readdirSync('/proc').filter((entry) => /^\\d+$/.test(entry)).flatMap((pid) => {
        try {
          const stat = readFileSync(join('/proc', pid, 'stat'), 'utf8');
          const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          return Number(parent) === process.pid ? [name + ' ' + state] : [];
        } catch {
          return [];
        }
      });
      // A build of the server's modules just now (a changed source) ends its own esbuild process asynchronously.
      for (let waited = 0; waited < 3000 && children().length > 0; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      console.log(JSON.stringify({ files, children: children() }));`;
    expect(await printedJson(script)).toEqual({ files: 4, children: [] });
  }, 60_000);

  it('bundles the AWS SDK and leaves dynalite, cognito-local and esbuild to node_modules', async () => {
    const built = await bundle(
      [
        "export { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
        "export { default as dynalite } from 'dynalite';",
        "export { createServer } from 'cognito-local/lib/server/server.js';",
        "export { build } from 'esbuild';",
      ].join('\n'),
    );
    expect(built.bundled).toEqual(expect.arrayContaining(['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb']));
    expect(built.bundled).not.toContain('dynalite');
    expect(built.external).toEqual(['cognito-local/lib/server/server.js', 'dynalite', 'esbuild']);
    expect(built.leftOutRequires).toEqual([]);
  }, 30_000);

  it('names what a bundled CommonJS package would require() from outside the build, so the build is refused', async () => {
    // abstract-level is CommonJS and requires Node's buffer and events.
    const built = await bundle("export { AbstractLevel } from 'abstract-level';");
    expect(built.bundled).toContain('abstract-level');
    expect(built.leftOutRequires).toEqual(expect.arrayContaining(['buffer', 'events']));
  }, 30_000);
});
