/**
 * How every function is bundled, as plain data. The CDK function construct and the bundle benchmark both read
 * this one object, so the sizes and init times the benchmark reports are those of the deployed bundles.
 * No CDK imports here: the benchmark loads this module without paying for aws-cdk-lib.
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';

/** The repository root, which holds package-lock.json and the lambdas/ folder. */
export const PROJECT_ROOT = join(__dirname, '..');

/** Function folders under lambdas/, each with a `handler.ts` exporting `handler`. */
export const FUNCTION_DIRS = [
  'latest',
  'pair',
  'history',
  'currencies',
  'enriched',
  'quota',
  'authorizer',
  'ingest',
] as const;
export type FunctionDir = (typeof FUNCTION_DIRS)[number];

export function functionEntry(dir: string): string {
  return join(PROJECT_ROOT, 'lambdas', dir, 'handler.ts');
}

export const BUNDLE_OPTIONS = {
  minify: true,
  sourceMap: true,
  // The maps serve stack traces (NODE_OPTIONS=--enable-source-maps); embedding the sources would only add bytes.
  sourcesContent: false,
  // Lambda's nodejs24.x runtime, which Runtime.NODEJS_LATEST names.
  target: 'node24',
  format: 'cjs',
  // Nothing is external: the AWS SDK is bundled so esbuild keeps only the commands a function imports,
  // instead of loading the runtime's full copy.
  externalModules: [] as string[],
  // Prefer packages' ES module builds: esbuild can tree-shake those, not their CommonJS builds.
  mainFields: ['module', 'main'],
  // The SDK's credential chain, reduced to the environment credentials Lambda provides (see the module).
  // Relative to PROJECT_ROOT, where both the CDK and the benchmark run esbuild.
  alias: { '@aws-sdk/credential-provider-node': './lib/lambda-credentials.ts' } as Record<string, string>,
} as const;

/** The same options for a direct esbuild call (the benchmark), producing what the CDK asset contains. */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: BUNDLE_OPTIONS.target,
    format: BUNDLE_OPTIONS.format,
    minify: BUNDLE_OPTIONS.minify,
    sourcemap: BUNDLE_OPTIONS.sourceMap,
    sourcesContent: BUNDLE_OPTIONS.sourcesContent,
    external: [...BUNDLE_OPTIONS.externalModules],
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    alias: { ...BUNDLE_OPTIONS.alias },
    absWorkingDir: PROJECT_ROOT,
    metafile: true,
    logLevel: 'warning',
  };
}
