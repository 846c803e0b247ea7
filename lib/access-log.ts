/** The access log lines of the service's two REST APIs, as API Gateway writes them. */

/**
 * One JSON object per request. String values throughout: API Gateway writes `-` for a missing variable, which
 * would break unquoted numbers. The API key header is deliberately absent.
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTimeEpoch',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  gatewayResponse: '$context.error.responseType',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.latency',
  denyCode: '$context.authorizer.errorCode',
  wafStatus: '$context.waf.status',
};

/** The public API's access log line, plus the person (the token's `sub`) a request was made by. */
export const DASHBOARD_ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(ACCESS_LOG_FIELDS).filter(([name]) => name !== 'denyCode')),
  sub: '$context.authorizer.claims.sub',
};
