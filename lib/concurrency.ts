/**
 * Reserved Lambda concurrency, with the context flag `reservedConcurrency` on (the default). A reservation is both a
 * cap (no more instances of the function run at once) and a guarantee (the account keeps them for it).
 */
import { DASHBOARD_ROUTES } from '../lambdas/core/http/dashboard-routes';
import type { DeployConfig } from './config';

export const RESERVED_CONCURRENCY = {
  /** Runs never overlap; a throttled asynchronous event is retried (INGEST_RETRY), a manual invoke gets 429. */
  ingest: 1,
  /** Well over 50 calls a second per route; beyond, a 503 rather than sign-ups taking the public API's share. */
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
