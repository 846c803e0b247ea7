/**
 * How every function is bundled, as plain data that the CDK and the bundle benchmark both read, so the benchmark
 * measures the deployed bundles. No CDK imports: the benchmark loads this without paying for aws-cdk-lib.
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { DASHBOARD_ROUTES, type DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import { ROUTES, type RouteId } from '../lambdas/core/http/routes';

/** The repository root, which holds package-lock.json and the lambdas/ folder. */
export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** The functions that are not routes, each with its own `lambdas/<name>/handler.ts`. */
export const SERVICE_FUNCTIONS = ['authorizer', 'ingest'] as const;
export type FunctionName = RouteId | DashboardRouteId | (typeof SERVICE_FUNCTIONS)[number];

/** One per route of either registry, plus the authorizer and ingestion. */
export const FUNCTION_NAMES: readonly FunctionName[] = [
  ...ROUTES.map((route) => route.id),
  ...DASHBOARD_ROUTES.map((route) => route.id),
  ...SERVICE_FUNCTIONS,
];

/** The specifier that the shared endpoint entry imports its route's module by (lambdas/endpoint/handler.ts). */
export const ROUTE_ENDPOINT_SPECIFIER = 'fxrates-route-endpoint';
/** The same for the dashboard's routes (lambdas/dashboard/handler.ts). */
export const DASHBOARD_ENDPOINT_SPECIFIER = 'fxrates-dashboard-endpoint';

/** A route's endpoint module, relative to PROJECT_ROOT: the convention the registry's comment states. */
export function endpointModule(route: RouteId): string {
  return `lambdas/core/endpoints/${route}.ts`;
}

/** A dashboard route's module, relative to PROJECT_ROOT (dashboard-routes.ts states the convention). */
export function dashboardModule(route: DashboardRouteId): string {
  return `lambdas/core/dashboard/${route}.ts`;
}

export function isRoute(name: FunctionName): name is RouteId {
  return ROUTES.some((route) => route.id === name);
}

export function isDashboardRoute(name: FunctionName): name is DashboardRouteId {
  return DASHBOARD_ROUTES.some((route) => route.id === name);
}

/** The file esbuild starts from: a registry's shared entry for its routes, the function's own entry otherwise. */
export function functionEntry(name: FunctionName): string {
  const folder = isRoute(name) ? 'endpoint' : isDashboardRoute(name) ? 'dashboard' : name;
  return join(PROJECT_ROOT, 'lambdas', folder, 'handler.ts');
}

/** Module aliases of one function's bundle: the shared ones, and a route's own endpoint module. */
export function functionAliases(name: FunctionName): Record<string, string> {
  if (isRoute(name)) return { ...BUNDLE_OPTIONS.alias, [ROUTE_ENDPOINT_SPECIFIER]: `./${endpointModule(name)}` };
  if (isDashboardRoute(name)) {
    return { ...BUNDLE_OPTIONS.alias, [DASHBOARD_ENDPOINT_SPECIFIER]: `./${dashboardModule(name)}` };
  }
  return { ...BUNDLE_OPTIONS.alias };
}

export const BUNDLE_OPTIONS = {
  minify: true,
  sourceMap: true,
  // The maps serve stack traces (NODE_OPTIONS=--enable-source-maps); embedding the sources would only add bytes.
  sourcesContent: false,
  // Lambda's nodejs22.x runtime, which lib/fxrates-function.ts pins (the infra tests check that both agree).
  target: 'node22',
  format: 'cjs',
  // Nothing is external: the AWS SDK is bundled so esbuild keeps only the commands a function imports,
  // instead of loading the runtime's full copy.
  externalModules: [] as string[],
  // Prefer packages' ES module builds: esbuild can tree-shake those, not their CommonJS builds.
  mainFields: ['module', 'main'],
  // Relative to PROJECT_ROOT, where both the CDK and the benchmark run esbuild.
  alias: {
    // Why: docs/clever-parts.md#credential-provider-alias
    '@aws-sdk/credential-provider-node': './lambdas/core/lambda-credentials.ts',
    // Why: docs/clever-parts.md#web-streams-loaded-on-first-use
    'node:stream/web': './lambdas/core/middy-web-streams.ts',
  } as Record<string, string>,
} as const;

/** The same options for a direct esbuild call (the benchmark), producing what the CDK asset contains. */
export function esbuildOptions(name: FunctionName, outfile: string): BuildOptions {
  return { ...sharedEsbuildOptions(outfile), entryPoints: [functionEntry(name)], alias: functionAliases(name) };
}

/** The options every bundle shares, for a build of other code the same way (the benchmark's floor). */
export function sharedEsbuildOptions(outfile: string): BuildOptions {
  return {
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
