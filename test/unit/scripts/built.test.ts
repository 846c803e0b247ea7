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
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  return JSON.parse(stdout) as Built;
}

describe('the build npm start and the admin CLI run from', () => {
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
