import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { defaultAuthorizer } from '../core/auth/deps';

const authorizer = defaultAuthorizer();

export const handler = (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> =>
  authorizer.authorize(event);
