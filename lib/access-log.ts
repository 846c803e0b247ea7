/** The access log lines of the service's two REST APIs, as API Gateway writes them. */

/** What every access log line of both APIs carries. */
const COMMON_FIELDS: Readonly<Record<string, string>> = {
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
  wafStatus: '$context.waf.status',
};

/**
 * One JSON object per request. String values throughout: API Gateway writes `-` for a missing variable, which
 * would break unquoted numbers. The API key header is deliberately absent. From the REQUEST authorizer's context
 * (lambdas/core/http/authorizer-context.ts) come the account and plan a key named and the verdict on the request
 * (`admitted`, `rate-limit-exceeded`, ...); a Deny's context gives the code of the 401 instead.
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  ...COMMON_FIELDS,
  accountId: '$context.authorizer.accountId',
  plan: '$context.authorizer.plan',
  verdict: '$context.authorizer.verdict',
  denyCode: '$context.authorizer.errorCode',
};

/** The dashboard API's line: the common fields plus the person (the token's `sub`) a request was made by. */
export const DASHBOARD_ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  ...COMMON_FIELDS,
  sub: '$context.authorizer.claims.sub',
};
