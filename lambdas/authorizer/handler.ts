import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { createAuthorizer } from '../core/auth/authorizer';
import { createAuthorizerObserver, logUnavailable } from '../core/auth/observe';
import { systemClock } from '../core/domain/dates';
import { requireEnv } from '../core/env';
import { isUnavailable } from '../core/http/authorizer-context';
import { countServerError } from '../core/http/server-errors';
import { AccountsReadStore } from '../core/store/accounts-read-store';
import { documentClient } from '../core/store/clients';
import { ACCOUNTS_TABLE } from '../core/store/tables';
import { usageStore } from '../core/store/usage-store';

/** The module-scope authorizer of a function process: one client, one record cache. */
const accounts = new AccountsReadStore(documentClient(), requireEnv(ACCOUNTS_TABLE.envVar));
const authorizer = createAuthorizer({
  keys: accounts,
  accounts,
  usage: usageStore(),
  clock: systemClock,
  observe: createAuthorizerObserver(),
  onUnavailable: logUnavailable,
});

/**
 * Time kept back from the function's remaining time: the decision ends this long before the function would time
 * out, which leaves ample room to return the `unavailable` answer (503) instead of a timeout (500).
 */
export const ANSWER_MARGIN_MS = 500;

/**
 * The authorizer's 5xx for its release alarm: the `unavailable` verdict, which the endpoint turns into 503 (its
 * store failed it, or its deadline passed). A thrown error is API Gateway's 500, and Lambda already counts it in
 * `Errors`, which the alarm adds; it is not counted twice here.
 */
export const handler = async (
  event: APIGatewayRequestAuthorizerEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<APIGatewayAuthorizerResult> => {
  const remaining = context?.getRemainingTimeInMillis?.();
  const result = await authorizer.authorize(
    event,
    remaining === undefined ? {} : { deadlineMs: remaining - ANSWER_MARGIN_MS },
  );
  if (isUnavailable(result.context)) await countServerError();
  return result;
};
