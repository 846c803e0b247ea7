import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { operationOf } from '../../local-server/in-process-transport';

/**
 * Counts the DynamoDB calls a client sends, by operation, as a middleware on the client's stack. It sits inside
 * the SDK's retry loop, so every attempt that reaches the service counts: that is what DynamoDB bills.
 * Batch operations count once per call, not per item.
 */
const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface DdbCounts {
  reads: number;
  writes: number;
  /** Writes the service refused with ConditionalCheckFailedException (they still consume capacity). */
  failedConditions: number;
  byOperation: Record<string, number>;
}

export interface DdbCounter {
  snapshot(): DdbCounts;
  reset(): void;
}

const MIDDLEWARE_NAME = 'fxratesDdbCounter';

/** The operation from the request's target header, or from the command's name when the request has none. */
function operationOfCall(request: unknown, commandName: string | undefined): string {
  const headers = (request as { headers?: Record<string, string> } | undefined)?.headers ?? {};
  return operationOf(headers) ?? (commandName ?? 'Unknown').replace(/Command$/, '');
}

/**
 * Adds one counter to the clients (a document client shares its base client's stack) and returns it. A client
 * with `cacheMiddleware` (the metering client) sees it only if attached before its first request.
 */
export function attachDdbCounter(...clients: (DynamoDBDocumentClient | DynamoDBClient)[]): DdbCounter {
  let byOperation: Record<string, number> = {};
  let failedConditions = 0;
  for (const client of clients) {
    client.middlewareStack.remove(MIDDLEWARE_NAME);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = operationOfCall(args.request, context.commandName);
        byOperation[operation] = (byOperation[operation] ?? 0) + 1;
        try {
          return await next(args);
        } catch (error) {
          if ((error as { name?: string }).name === 'ConditionalCheckFailedException') failedConditions++;
          throw error;
        }
      },
      { step: 'finalizeRequest', priority: 'low', name: MIDDLEWARE_NAME },
    );
  }
  return {
    snapshot: () => ({ ...countsByOperation(byOperation), failedConditions }),
    reset: () => {
      byOperation = {};
      failedConditions = 0;
    },
  };
}

/** Reads and writes among requests counted by operation: by `attachDdbCounter`, or elsewhere (the local service's store thread). */
export function countsByOperation(byOperation: Record<string, number>): DdbCounts {
  const counts: DdbCounts = { reads: 0, writes: 0, failedConditions: 0, byOperation: { ...byOperation } };
  for (const [operation, n] of Object.entries(byOperation)) {
    if (READS.has(operation)) counts.reads += n;
    if (WRITES.has(operation)) counts.writes += n;
  }
  return counts;
}

/** Counts per unit (e.g. per admitted request), for benchmarks' printed figures. */
export function perUnit(counts: DdbCounts, units: number): { reads: number; writes: number } {
  return units === 0 ? { reads: 0, writes: 0 } : { reads: counts.reads / units, writes: counts.writes / units };
}
