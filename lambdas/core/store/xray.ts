/**
 * X-Ray subsegments for DynamoDB calls when tracing is on (FXRATES_TRACING). The SDK is not bundled (its package is
 * named in a variable esbuild does not follow); when it is missing beside the bundle, calls go on untraced and one
 * warning says why. Its middleware is added at once (the metering client resolves its stack on its first call only)
 * and waits, on the first call only, for the SDK to finish loading.
 */
// Why: docs/clever-parts.md#x-ray-sdk-outside-the-bundles
import type { DynamoDBClient, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import type { BuildHandlerOptions, BuildMiddleware } from '@smithy/types';
import { logger } from '../observability';

export const XRAY_SDK_PACKAGE = 'aws-xray-sdk-core';

/** The name the X-Ray SDK gives its middleware; ours takes its place, so the SDK would replace rather than double it. */
export const XRAY_MIDDLEWARE_NAME = 'XRaySDKInstrumentation';

type Middleware = BuildMiddleware<ServiceInputTypes, ServiceOutputTypes>;

export interface XRaySdk {
  captureAWSv3Client<T extends { middlewareStack: { remove: unknown; use: unknown }; config: unknown }>(client: T): T;
}

export type XRayLoader = () => Promise<XRaySdk | undefined>;

let loading: Promise<XRaySdk | undefined> | undefined;

/** The X-Ray SDK, imported once per process; undefined (and one warning) when it cannot be loaded. */
export const loadXRaySdk: XRayLoader = () => {
  loading ??= import(XRAY_SDK_PACKAGE)
    .then((module: { default?: XRaySdk } & Partial<XRaySdk>) => {
      const sdk = typeof module.captureAWSv3Client === 'function' ? (module as XRaySdk) : module.default;
      if (typeof sdk?.captureAWSv3Client !== 'function')
        throw new Error(`${XRAY_SDK_PACKAGE} has no captureAWSv3Client`);
      return sdk;
    })
    .catch((error: unknown) => {
      warnOnce(error);
      return undefined;
    });
  return loading;
};

let warned = false;
function warnOnce(error: unknown): void {
  if (warned) return;
  warned = true;
  logger.warn('tracing is on, but the X-Ray SDK could not be loaded: DynamoDB calls are not traced', {
    package: XRAY_SDK_PACKAGE,
    error: error as Error,
  });
}

/**
 * The middleware (and its step) that `captureAWSv3Client` would add to a client with this config: the SDK adds it
 * through the stack's plugin interface (`use` → `applyToStack` → `add`), which is all this stand-in stack offers.
 */
function sdkMiddleware(sdk: XRaySdk, config: unknown): Middleware | undefined {
  let captured: Middleware | undefined;
  const stack = {
    remove: () => true,
    add: (middleware: Middleware) => {
      captured = middleware;
    },
    use: (plugin: { applyToStack(stack: unknown): void }) => plugin.applyToStack(stack),
  };
  sdk.captureAWSv3Client({ config, middlewareStack: stack });
  return captured;
}

export function traceClient(client: DynamoDBClient, load: XRayLoader = loadXRaySdk): void {
  const ready = load().then((sdk) => (sdk ? sdkMiddleware(sdk, client.config) : undefined));
  const lazy: Middleware = (next, context) => {
    let handler: ReturnType<Middleware> | undefined;
    return async (args) => {
      if (!handler) {
        const traced = await ready;
        handler = traced ? traced(next, context) : next;
      }
      return handler(args);
    };
  };
  client.middlewareStack.remove(XRAY_MIDDLEWARE_NAME);
  // The step the X-Ray SDK uses: around the retries, so one call is one subsegment however many attempts it took.
  const options: BuildHandlerOptions = { name: XRAY_MIDDLEWARE_NAME, step: 'build' };
  client.middlewareStack.add(lazy, options);
}
