/**
 * One EMF `ServerErrors` line per 5xx answer of a released function and version, for the release alarm
 * (lib/release.ts): endpoints answer their own failures, which Lambda's `Errors` never sees.
 */
// Why: docs/clever-parts.md#hand-written-logger-and-emf-writer
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Metrics } from '../emf';
import { METRIC_DIMENSIONS, RELEASE_METRICS } from '../metric-names';
import type { HttpResponse } from './responses';

/** The function and the published version this process runs, as Lambda names them in its environment. */
interface ReleasedVersion {
  functionName: string;
  version: string;
}

/** Outside Lambda (the local server, tests) there is no version to judge, so nothing is counted. */
function releasedVersion(env: NodeJS.ProcessEnv = process.env): ReleasedVersion | undefined {
  const functionName = env.AWS_LAMBDA_FUNCTION_NAME;
  const version = env.AWS_LAMBDA_FUNCTION_VERSION;
  return functionName && version ? { functionName, version } : undefined;
}

function isServerError(statusCode: number): boolean {
  return statusCode >= 500 && statusCode <= 599;
}

let emf: Promise<typeof import('../emf')> | undefined;
let emitter: Metrics | undefined;

/** Without `metrics`, the line is written once the EMF module has loaded, which the promise waits for. */
export async function countServerError(
  released: ReleasedVersion | undefined = releasedVersion(),
  metrics?: Metrics,
): Promise<void> {
  if (!released) return;
  let target = metrics;
  if (!target) {
    emf ??= import('../emf');
    const { Metrics } = await emf;
    emitter ??= new Metrics();
    target = emitter;
  }
  target
    .addDimension(METRIC_DIMENSIONS.function, released.functionName)
    .addDimension(METRIC_DIMENSIONS.version, released.version)
    .addMetric(RELEASE_METRICS.serverErrors, 'Count', 1)
    .publishStoredMetrics();
}

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, HttpResponse, Error, Context>;

export interface ServerErrorCountOptions {
  /** The 503 relayed for the authorizer's `unavailable` verdict: the authorizer counts it against its version. */
  relayed?: (event: APIGatewayProxyEvent) => boolean;
}

/**
 * Registered first in a chain, so its `after` and `onError` run last and see the status the client gets, whatever
 * the error envelope and the final headers made of it. A request passes exactly one of the two.
 */
export function serverErrorCount(options: ServerErrorCountOptions = {}): Middleware {
  // Awaited by middy, so the line is out before the answer is.
  const count = async (request: middy.Request<APIGatewayProxyEvent, HttpResponse, Error, Context>) => {
    const status = request.response?.statusCode;
    if (status === undefined || !isServerError(status)) return;
    if (options.relayed?.(request.event)) return;
    await countServerError();
  };
  return { after: count, onError: count };
}
