import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { defaultAuthorizer } from '../core/auth/deps';

const authorizer = defaultAuthorizer();

/**
 * Time kept back from the function's remaining time: the decision ends this long before the function would time
 * out, which leaves ample room to return the `unavailable` answer (503) instead of a timeout (500).
 */
export const ANSWER_MARGIN_MS = 500;

export const handler = (
  event: APIGatewayRequestAuthorizerEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<APIGatewayAuthorizerResult> => {
  const remaining = context?.getRemainingTimeInMillis?.();
  return authorizer.authorize(event, remaining === undefined ? {} : { deadlineMs: remaining - ANSWER_MARGIN_MS });
};
