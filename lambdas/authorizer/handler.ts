import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { defaultAuthorizer } from '../core/auth/deps';
import { isUnavailable } from '../core/http/authorizer-context';
import { countServerError } from '../core/http/server-errors';

const authorizer = defaultAuthorizer();

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
