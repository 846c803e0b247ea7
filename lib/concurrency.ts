/**
 * Reserved Lambda concurrency, with the context flag `reservedConcurrency` on (the default). A reservation is both a
 * cap (no more instances of the function run at once) and a guarantee (the account keeps them for it).
 */
import { DASHBOARD_ROUTES } from '../lambdas/core/http/dashboard-routes';
import type { DeployConfig } from './config';

export const RESERVED_CONCURRENCY = {
  /**
   * One: a scheduled run and a manual one never overlap. Lambda keeps a throttled asynchronous event and tries it
   * again (lib/ingestion.ts, INGEST_RETRY); a synchronous `aws lambda invoke` is refused with 429 instead.
   */
  ingest: 1,
  /**
   * Each dashboard function: people at a page, a few calls per page view. A warm call takes tens of milliseconds,
   * so 4 instances serve well over 50 calls a second per route; beyond that API Gateway answers 503 (the
   * INTEGRATION_FAILURE gateway response) rather than letting sign-up traffic take the public API's concurrency.
   */
  dashboardFunction: 4,
} as const;

/** Lambda refuses a reservation that leaves less than this unreserved in the account and region. */
export const MIN_UNRESERVED_CONCURRENCY = 100;

/** Everything this app reserves, and so the smallest account concurrency limit it deploys on with reservations. */
export const TOTAL_RESERVED_CONCURRENCY =
  RESERVED_CONCURRENCY.ingest + RESERVED_CONCURRENCY.dashboardFunction * DASHBOARD_ROUTES.length;
export const MIN_ACCOUNT_CONCURRENCY = TOTAL_RESERVED_CONCURRENCY + MIN_UNRESERVED_CONCURRENCY;

/** The reservation of one group's functions under this deployment's settings; undefined when reservations are off. */
export function reservedConcurrency(
  config: DeployConfig,
  group: keyof typeof RESERVED_CONCURRENCY,
): number | undefined {
  return config.reservedConcurrency ? RESERVED_CONCURRENCY[group] : undefined;
}
