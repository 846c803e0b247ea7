import { ERROR_CATALOG, isErrorCode } from '../../../lambdas/core/domain/errors';
import { DENY_CONTEXT_CODE, DENY_CONTEXT_MESSAGE } from '../../../lambdas/core/http/authorizer-context';
import {
  GATEWAY_RESPONSE_HEADERS,
  GATEWAY_RESPONSES,
  gatewayResponse,
  renderGatewayTemplate,
} from '../../../lambdas/core/http/gateway-responses';

const denyContext = (code: string, message: string) => ({
  [`authorizer.${DENY_CONTEXT_CODE}`]: code,
  [`authorizer.${DENY_CONTEXT_MESSAGE}`]: message,
  requestId: 'req-1',
});

describe('GATEWAY_RESPONSES', () => {
  it('renders every template to the contract envelope with success false and a catalog code', () => {
    for (const row of GATEWAY_RESPONSES) {
      const context = denyContext('invalid-api-key', ERROR_CATALOG['invalid-api-key'].message);
      const body = JSON.parse(renderGatewayTemplate(row.template, context));
      expect(Object.keys(body).sort()).toEqual(['error', 'success']);
      expect(body.success).toBe(false);
      expect([row.type, isErrorCode(body.error.code)]).toEqual([row.type, true]);
      expect(typeof body.error.message).toBe('string');
      expect(body.error.message.length).toBeGreaterThan(0);
      const allowed = ['code', 'message', 'param'];
      expect(Object.keys(body.error).every((k) => allowed.includes(k))).toBe(true);
    }
  });

  it('leaves no $context variable unrendered', () => {
    for (const row of GATEWAY_RESPONSES) {
      expect(renderGatewayTemplate(row.template, denyContext('missing-api-key', 'x'))).not.toContain('$context');
    }
  });

  it('covers the responses API Gateway may send on its own, each once', () => {
    const types = GATEWAY_RESPONSES.map((r) => r.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of [
      'ACCESS_DENIED',
      'UNAUTHORIZED',
      'MISSING_AUTHENTICATION_TOKEN',
      'RESOURCE_NOT_FOUND',
      'THROTTLED',
      'AUTHORIZER_FAILURE',
      'DEFAULT_4XX',
      'DEFAULT_5XX',
    ] as const) {
      expect(types).toContain(type);
    }
  });

  it('answers an unknown path with 404 not-found', () => {
    for (const type of ['MISSING_AUTHENTICATION_TOKEN', 'RESOURCE_NOT_FOUND'] as const) {
      const row = gatewayResponse(type);
      expect(row.status).toBe(404);
      expect(JSON.parse(row.template).error.code).toBe('not-found');
    }
  });

  it('answers a missing X-API-Key header with 401 missing-api-key naming the header', () => {
    const row = gatewayResponse('UNAUTHORIZED');
    expect(row.status).toBe(401);
    expect(JSON.parse(row.template).error).toEqual({
      code: 'missing-api-key',
      message: ERROR_CATALOG['missing-api-key'].message,
      param: 'X-API-Key',
    });
  });

  it('uses the catalog status for rows whose status the contract names', () => {
    const contractStatuses = new Set<number>(Object.values(ERROR_CATALOG).map((e) => e.status));
    for (const row of GATEWAY_RESPONSES.filter((r) => r.type !== 'ACCESS_DENIED' && r.type !== 'WAF_FILTERED')) {
      if (row.status === undefined || !contractStatuses.has(row.status)) continue;
      const { code } = JSON.parse(row.template).error as { code: keyof typeof ERROR_CATALOG };
      expect([row.type, row.status]).toEqual([row.type, ERROR_CATALOG[code].status]);
    }
  });

  it('finds a row by type, and refuses an unknown type', () => {
    expect(gatewayResponse('THROTTLED').status).toBe(429);
    expect(() => gatewayResponse('NOPE' as 'THROTTLED')).toThrow();
  });

  it('sends JSON, no-store and the request id with every gateway response', () => {
    expect(GATEWAY_RESPONSE_HEADERS).toEqual({
      'Content-Type': "'application/json; charset=utf-8'",
      'Cache-Control': "'no-store'",
      'X-Request-Id': 'context.requestId',
    });
  });
});

describe('ACCESS_DENIED', () => {
  const row = gatewayResponse('ACCESS_DENIED');

  it("renders the authorizer's code and message as a 401 naming the header", () => {
    expect(row.status).toBe(401);
    for (const code of ['missing-api-key', 'invalid-api-key'] as const) {
      const message = ERROR_CATALOG[code].message;
      const body = JSON.parse(renderGatewayTemplate(row.template, denyContext(code, message)));
      expect(body).toEqual({ success: false, error: { code, message, param: 'X-API-Key' } });
    }
  });

  it('reads its variables from the context keys the authorizer sets', () => {
    expect(row.template).toContain(`$context.authorizer.${DENY_CONTEXT_CODE}`);
    expect(row.template).toContain(`$context.authorizer.${DENY_CONTEXT_MESSAGE}`);
  });
});

describe('renderGatewayTemplate', () => {
  const template = gatewayResponse('ACCESS_DENIED').template;

  it('inserts values unescaped, as API Gateway does', () => {
    const rendered = renderGatewayTemplate(template, denyContext('invalid-api-key', 'a "quoted" word'));
    expect(rendered).toContain('"message":"a "quoted" word"');
  });

  it('keeps the body valid JSON for every message the authorizer can deny with', () => {
    for (const code of ['missing-api-key', 'invalid-api-key'] as const) {
      const message = ERROR_CATALOG[code].message;
      expect([...message].filter((c) => c < ' ' || c === '"' || c === '\\')).toEqual([]);
      const body = JSON.parse(renderGatewayTemplate(template, denyContext(code, message)));
      expect(body.error).toEqual({ code, message, param: 'X-API-Key' });
    }
  });

  it('renders a missing variable as an empty string', () => {
    const body = JSON.parse(renderGatewayTemplate(template, {}));
    expect(body.error).toEqual({ code: '', message: '', param: 'X-API-Key' });
  });

  it('substitutes every occurrence and leaves other text alone', () => {
    expect(renderGatewayTemplate('$context.a-$context.a $x', { a: '1' })).toBe('1-1 $x');
  });
});

describe('gateway response statuses', () => {
  it("answers every gateway response with the contract's status for its code, except the issue's 504 timeout", () => {
    for (const row of GATEWAY_RESPONSES) {
      const { code } = JSON.parse(renderGatewayTemplate(row.template, denyContext('invalid-api-key', 'x'))).error;
      if (row.status === undefined) continue;
      const expected =
        row.type === 'INTEGRATION_TIMEOUT' ? 504 : ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status;
      expect([row.type, row.status]).toEqual([row.type, expected]);
    }
  });
});
