import { bodyValidator, type DocumentedOutcome, documentedOutcomes, outcomeKey } from '../../../api-docs/inspect';
import { buildOpenApiDocument, type HeaderObject, type ResponseObject } from '../../../api-docs/openapi';
import { ROUTE_PARAMETERS } from '../../../api-docs/schemas-public';
import { KEY_CREATION_LIMIT } from '../../../lambdas/core/dashboard/deps';
import { ERROR_CATALOG, type ErrorCode } from '../../../lambdas/core/domain/errors';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_MAX_BODY_BYTES,
  DASHBOARD_ROUTES,
  matchDashboardRoute,
} from '../../../lambdas/core/http/dashboard-routes';
import { matchRoute, ROUTES, type RouteDefinition } from '../../../lambdas/core/http/routes';
import { type ApiReply, startTestApi, type TestApi } from '../../support/api-service';
import { signUpAndSignIn } from '../../support/dashboard';

/**
 * The document against the running server, both ways: every (route, status, code) the server produces here is
 * documented, with a body that conforms to the documented schema and only documented headers; and every
 * documented one is produced here, except those no local request can bring about (NOT_DRIVEN). The dashboard API
 * too, with real ID tokens from the local server's Cognito emulator.
 */
const doc = buildOpenApiDocument();
const validator = bodyValidator(doc);

const dashboardRouteOf = (o: DocumentedOutcome) =>
  DASHBOARD_ROUTES.find((route) => route.path === o.path && route.method === o.method);

/**
 * Documented as possible but not driven: 500 internal-error needs an endpoint that fails unexpectedly; 504 is
 * API Gateway's integration timeout, which the local gateway does not imitate; and /quota reads no rates, so its
 * 503 comes only from a failing authorizer (its store down). On the dashboard API, 503 comes only from API Gateway
 * (its authorizer failing, the function unreachable), and a 429 outside key creation only from its stage throttle.
 * 403 request-blocked comes only from the web firewall in front of the deployed stages (WAF_FILTERED).
 */
const NOT_DRIVEN = (o: DocumentedOutcome) =>
  o.code === 'request-blocked' ||
  o.status === '500' ||
  o.status === '504' ||
  (o.status === '503' && (o.path === '/quota' || dashboardRouteOf(o) !== undefined)) ||
  (o.status === '429' && dashboardRouteOf(o) !== undefined && dashboardRouteOf(o)?.id !== 'keys-create');

/** A value of a parameter that each parameter-level code refuses. */
const BAD_VALUE: Partial<Record<ErrorCode, string>> = {
  'unsupported-currency': 'XYZ',
  'invalid-amount': '-1',
  'invalid-date': '2023-02-30',
  'unsupported-locale': 'fr',
};

/** Headers any HTTP response carries, which the document does not describe. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** A request to a route, below /v1, from the parameter examples of the document, with some values replaced. */
function requestPath(route: RouteDefinition, values: Record<string, string> = {}, extraQuery = ''): string {
  const parameters = doc.paths[route.path]?.get?.parameters ?? [];
  let path = route.path;
  const query: string[] = [];
  for (const p of parameters) {
    const value = values[p.name] ?? p.example;
    if (value === undefined) continue;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    if (p.in === 'query') query.push(`${p.name}=${encodeURIComponent(value)}`);
  }
  if (extraQuery) query.push(extraQuery);
  return `${path.slice(1)}${query.length ? `?${query.join('&')}` : ''}`;
}

/** A time series answered as CSV (`format=csv`). */
const isCsv = (reply: ApiReply) => reply.headers.get('content-type')?.startsWith('text/csv') === true;

/** What a reply is held against: its documented response, and the schema check of its body. */
interface Documented {
  /** The operation's path and method; undefined for an unknown path or method (the NotFound response). */
  operation: { path: string; method: string } | undefined;
  response: ResponseObject | undefined;
}

/** The problems of a reply against its documented response: status, code, body, headers. */
function problemsOf(reply: ApiReply, documented: Documented): string[] {
  const { operation, response } = documented;
  const csv = isCsv(reply);
  const body = reply.status === 304 || csv ? undefined : reply.json();
  const code = reply.status >= 400 ? body?.error?.code : undefined;
  const problems: string[] = [];
  if (!response) problems.push('status not documented');
  else if (code !== undefined && !response['x-error-codes']?.includes(code as ErrorCode)) {
    problems.push(`code ${code} not documented for ${reply.status}`);
  }
  if (response && body !== undefined) {
    problems.push(
      ...(operation
        ? validator.response(operation.path, operation.method, String(reply.status), body)
        : validator.componentResponse('NotFound', body)),
    );
  }
  if (csv) {
    const schema = response?.content?.['text/csv']?.schema;
    if (!schema) problems.push('text/csv not documented');
    else if (!new RegExp(String(schema.pattern)).test(reply.text)) problems.push('CSV body does not match its pattern');
  }
  const documentedHeaders = Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase());
  for (const [name] of response ? reply.headers : []) {
    if (!TRANSPORT_HEADERS.has(name) && !documentedHeaders.includes(name)) problems.push(`header ${name} undocumented`);
  }
  for (const [name, header] of Object.entries(response?.headers ?? {})) {
    const value = reply.headers.get(name);
    const { schema, required } = header as HeaderObject;
    // A header documented as optional may be absent; when present, it has its documented value.
    if (schema?.const !== undefined && (value !== null || required) && value !== schema.const) {
      problems.push(`${name} is ${value}, documented ${schema.const}`);
    }
    const allowed = schema?.enum as unknown[] | undefined;
    if (allowed !== undefined && (value !== null || required) && !allowed.includes(value)) {
      problems.push(`${name} is ${value}, documented one of ${allowed.join(' | ')}`);
    }
  }
  const mustCarry = ['X-Request-Id'];
  // A success carries every header documented for it, except those documented as not always sent.
  if (operation && reply.status < 400) {
    for (const [name, header] of Object.entries(response?.headers ?? {})) {
      if ((header as HeaderObject).required !== false) mustCarry.push(name);
    }
  }
  if (reply.status === 429) mustCarry.push('Retry-After');
  for (const name of mustCarry) if (!reply.headers.has(name)) problems.push(`header ${name} missing`);
  return problems;
}

describe('every documented response, produced over HTTP, and nothing undocumented', () => {
  let api: TestApi;
  let noRates: TestApi;
  const produced = new Map<string, string>();

  beforeAll(async () => {
    [api, noRates] = await Promise.all([startTestApi({ dashboard: true }), startTestApi({ loadRates: false })]);
  }, 30_000);
  afterAll(() => Promise.all([api?.close(), noRates?.close()]));

  /** Holds a reply against the document and records its outcome. */
  function record(
    label: string,
    reply: ApiReply,
    expected: { status: number; code?: ErrorCode },
    documented: Documented,
  ) {
    const body = reply.status === 304 || isCsv(reply) ? undefined : reply.json();
    const code = reply.status >= 400 ? body?.error?.code : undefined;
    expect({ label, status: reply.status, code }).toEqual({ label, status: expected.status, code: expected.code });
    expect({ label, status: reply.status, problems: problemsOf(reply, documented) }).toEqual({
      label,
      status: reply.status,
      problems: [],
    });
    const outcome = documented.operation
      ? outcomeKey({ ...documented.operation, status: reply.status, code })
      : `unmatched ${reply.status} ${code}`;
    produced.set(outcome, label);
  }

  /** Sends one request to the public API, records its outcome and holds the reply against the document. */
  async function call(
    target: TestApi,
    path: string,
    key: string | undefined,
    expected: { status: number; code?: ErrorCode },
    headers: Record<string, string> = {},
  ): Promise<ApiReply> {
    const reply = await target.get(path, key, headers);
    const match = matchRoute(`/${path.split('?')[0]}`);
    const operation = match ? { path: match.route.path, method: 'GET' } : undefined;
    const response = match
      ? doc.paths[match.route.path]?.get?.responses[String(reply.status)]
      : doc.components.responses.NotFound;
    record(path, reply, expected, { operation, response });
    return reply;
  }

  /**
   * Sends one request to the dashboard API (`resource` below /api) with an ID token, or none, records its outcome
   * and holds the reply against the document.
   */
  async function dashboardCall(
    method: string,
    resource: string,
    token: string | undefined,
    expected: { status: number; code?: ErrorCode },
    options: { json?: unknown; body?: string; contentType?: string } = {},
  ): Promise<ApiReply> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.Authorization = token;
    const body = options.json === undefined ? options.body : JSON.stringify(options.json);
    const contentType = options.contentType ?? (options.json === undefined ? undefined : 'application/json');
    if (contentType) headers['Content-Type'] = contentType;
    const url = new URL(`${DASHBOARD_BASE_PATH.slice(1)}${resource}`, api.service.dashboardUrl);
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    const reply: ApiReply = { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
    const match = matchDashboardRoute(method, resource.split('?')[0] ?? '');
    const operation = match ? { path: match.route.path, method } : undefined;
    const response = match
      ? doc.paths[match.route.path]?.[method.toLowerCase()]?.responses[String(reply.status)]
      : doc.components.responses.NotFound;
    record(`${method} ${DASHBOARD_BASE_PATH}${resource.slice(0, 60)}`, reply, expected, { operation, response });
    return reply;
  }

  /** A new person's ID token; `verify: false` leaves the address unverified. */
  async function signIn(email: string, verify = true): Promise<string> {
    const emulator = api.service.cognito;
    if (!emulator) throw new Error('the local service runs no Cognito emulator');
    return (await signUpAndSignIn(emulator, { email, password: 'Correct-Horse-9battery', verify })).idToken;
  }

  it('answers every route as documented: success, 304, authentication, account, parameters, plan and data', async () => {
    const business = (await api.newKey('business')).key;
    const free = (await api.newKey('free')).key;
    const suspended = await api.newKey('pro');
    await api.service.accounts.setStatus(suspended.accountId, 'suspended');

    for (const route of ROUTES) {
      const path = requestPath(route);
      const ok = await call(api, path, business, { status: 200 });
      if (route.etag) {
        const etag = ok.headers.get('etag') ?? '';
        await call(api, path, business, { status: 304 }, { 'If-None-Match': etag });
      }
      await call(api, path, undefined, { status: 401, code: 'missing-api-key' });
      await call(api, path, 'not-a-key', { status: 401, code: 'invalid-api-key' });
      await call(api, requestPath(route, {}, 'api_key=x'), business, { status: 400, code: 'api-key-in-url' });
      await call(api, path, suspended.key, { status: 403, code: 'account-inactive' });

      const parameters = Object.entries(ROUTE_PARAMETERS[route.id]);
      for (const [name, parameter] of parameters) {
        // One character over the parameter's documented limit (64, or more for a list such as convert's `to`).
        const tooLong = 'A'.repeat(parameter.doc.schema.maxLength + 1);
        await call(api, requestPath(route, { [name]: tooLong }), business, { status: 400, code: 'invalid-parameter' });
        for (const code of parameter.doc.errors) {
          const bad = BAD_VALUE[code];
          if (bad === undefined) throw new Error(`no bad value for ${code} (parameter ${name})`);
          await call(api, requestPath(route, { [name]: bad }), business, { status: ERROR_CATALOG[code].status, code });
        }
      }
      // A route without parameters is refused with invalid-parameter only for a request too large to read.
      if (parameters.length === 0) {
        await call(api, `${path}?x=${'a'.repeat(20_000)}`, business, { status: 400, code: 'invalid-parameter' });
      }
    }

    const history = ROUTES.find((r) => r.id === 'history') as RouteDefinition;
    await call(api, requestPath(history), free, { status: 403, code: 'plan-upgrade-required' });
    // 2026-04-11 is a Saturday: no ECB or currency-api rate that day. The parameter examples ask for
    // fallback=previous, which serves the Friday; without it, and 7 days past the ECB history's end, 404.
    await call(api, 'rates/history/USD/CHF/2026-04-11', business, { status: 404, code: 'no-data-available' });
    await call(api, requestPath(history, { date: '2026-04-11' }), business, { status: 200 });
    await call(api, requestPath(history, { date: '2026-04-21' }), business, { status: 404, code: 'no-data-available' });
    for (const name of ['fallback', 'expand']) {
      await call(api, requestPath(history, { [name]: 'x' }), business, { status: 400, code: 'invalid-parameter' });
    }
    // A recent fallback carries the shorter of the two documented Cache-Control values.
    api.clock.set('2026-04-12T12:00:00Z');
    const recent = await call(api, requestPath(history, { date: '2026-04-11' }), business, { status: 200 });
    expect(recent.headers.get('cache-control')).toBe('private, max-age=3600');
    api.clock.set('2026-09-30T12:00:00Z');
    await call(api, 'rates/oldest', business, { status: 404, code: 'not-found' });

    const timeseries = ROUTES.find((r) => r.id === 'timeseries') as RouteDefinition;
    await call(api, requestPath(timeseries), free, { status: 403, code: 'plan-upgrade-required' });
    const gap = { start: '2026-05-01', end: '2026-05-31' };
    await call(api, requestPath(timeseries, gap), business, { status: 404, code: 'no-data-available' });
    const csv = await call(api, requestPath(timeseries, { format: 'csv' }), business, { status: 200 });
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    await call(
      api,
      requestPath(timeseries, { format: 'csv' }),
      business,
      { status: 304 },
      {
        'If-None-Match': csv.headers.get('etag') ?? '',
      },
    );
    const malformed: Record<string, string>[] = [
      { format: 'xml' },
      { start: '2026-09-29', end: '2026-09-01' },
      { start: '2024-01-01' },
    ];
    for (const values of malformed) {
      await call(api, requestPath(timeseries, values), business, { status: 400, code: 'invalid-parameter' });
    }
    // A range that ended more than a week ago carries the longer of the two documented Cache-Control values.
    const settled = await call(api, requestPath(timeseries, { end: '2026-04-13' }), business, { status: 200 });
    expect(settled.headers.get('cache-control')).toBe('private, max-age=604800, immutable');
  });

  it('refuses every route at the per-minute limit and, where it counts, at the monthly quota', async () => {
    const minute = (await api.newKey('business', { perMinute: 1, monthlyLimit: 1_000_000 })).key;
    const month = (await api.newKey('free', { perMinute: 1000, monthlyLimit: 1 })).key;
    const first = ROUTES[0] as RouteDefinition;
    await call(api, requestPath(first), minute, { status: 200 });
    await call(api, requestPath(first), month, { status: 200 });
    for (const route of ROUTES) {
      await call(api, requestPath(route), minute, { status: 429, code: 'rate-limit-exceeded' });
      await call(
        api,
        requestPath(route),
        month,
        route.countsTowardMonth ? { status: 429, code: 'quota-exceeded' } : { status: 200 },
      );
    }
  });

  it('answers 503 on every route that reads rates while none are loaded', async () => {
    const key = (await noRates.newKey('business')).key;
    for (const route of ROUTES) {
      const expected = route.id === 'quota' ? { status: 200 } : { status: 503, code: 'service-unavailable' as const };
      await call(noRates, requestPath(route), key, expected);
    }
  });

  it('answers every dashboard route as documented: success, token, e-mail, body, account, key limits', async () => {
    const ada = await signIn('ada@example.com');
    const bob = await signIn('bob@example.com');
    const unverified = await signIn('eve@example.com', false);
    const [header, payload] = ada.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;

    // Ada, on Free: her account is made on her first request; one key, then the plan's limit, then the hourly one.
    await dashboardCall('GET', '/account', ada, { status: 200 });
    const empty = await dashboardCall('GET', '/keys', ada, { status: 200 });
    expect(empty.json().data).toMatchObject({ keys: [], can_create: true });
    const created = await dashboardCall('POST', '/keys', `Bearer ${ada}`, { status: 201 }, { json: { name: 'a' } });
    const keyId = String(created.json().data?.id);
    const full = await dashboardCall('GET', '/keys', ada, { status: 200 });
    expect(full.json().data).toMatchObject({ can_create: false, cannot_create_reason: expect.any(String) });
    for (let attempt = 2; attempt <= KEY_CREATION_LIMIT.max + 1; attempt++) {
      await dashboardCall('POST', '/keys', ada, { status: 409, code: 'key-limit-reached' }, { json: { name: 'b' } });
    }

    // Cy, on Business, has no key limit: the creation limit is what refuses him, and the list says until when.
    const cy = await signIn('cy@example.com');
    const cyAccount = (await dashboardCall('GET', '/account', cy, { status: 200 })).json().data?.account as {
      id: string;
    };
    await api.service.accounts.setPlan(cyAccount.id, 'business');
    for (let created = 0; created < KEY_CREATION_LIMIT.max; created++) {
      await dashboardCall('POST', '/keys', cy, { status: 201 }, { json: { name: `c${created}` } });
    }
    await dashboardCall('POST', '/keys', cy, { status: 429, code: 'rate-limit-exceeded' }, { json: { name: 'c' } });
    const limited = await dashboardCall('GET', '/keys', cy, { status: 200 });
    expect(limited.json().data).toMatchObject({ can_create: false, next_key_at: expect.any(String) });
    await dashboardCall('GET', '/account', cy, { status: 200 });

    // Bob cannot reach Ada's key, nor an unknown or malformed id.
    for (const id of [keyId, 'key_0000000000000000', 'nope']) {
      await dashboardCall('DELETE', `/keys/${id}`, bob, { status: 404, code: 'not-found' });
    }
    const revoked = await dashboardCall('DELETE', `/keys/${keyId}`, ada, { status: 200 });
    expect(revoked.json().data).toMatchObject({ status: 'revoked', already_revoked: false });
    const again = await dashboardCall('DELETE', `/keys/${keyId}`, ada, { status: 200 });
    expect(again.json().data).toMatchObject({ already_revoked: true });
    const listed = await dashboardCall('GET', '/keys', ada, { status: 200 });
    expect(listed.json().data).toMatchObject({ keys: [{ id: keyId, status: 'revoked' }], can_create: true });
    await dashboardCall('GET', '/plans', ada, { status: 200 });

    // Bob's bodies: the body itself, then the name.
    const badBodies: [{ json?: unknown; body?: string; contentType?: string }, string][] = [
      [{ body: '{"name":', contentType: 'application/json' }, 'body'],
      [{ body: '{"name":"x"}', contentType: 'text/plain' }, 'body'],
      [{ json: { name: 'x'.repeat(DASHBOARD_MAX_BODY_BYTES) } }, 'body'],
      [{ json: {} }, 'name'],
      [{ json: { name: 'x'.repeat(65) } }, 'name'],
      [{ json: { name: '   ' } }, 'name'],
    ];
    for (const [options, param] of badBodies) {
      const reply = await dashboardCall('POST', '/keys', bob, { status: 400, code: 'invalid-parameter' }, options);
      expect({ options, param: reply.json().error?.param }).toEqual({ options, param });
    }
    // A suspended account still reads its overview, and can create no key.
    const account = await dashboardCall('GET', '/account', bob, { status: 200 });
    const accountId = (account.json().data?.account as { id?: string } | undefined)?.id;
    expect(accountId).toMatch(/^acc_/);
    await api.service.accounts.setStatus(accountId ?? '', 'suspended');
    const suspended = await dashboardCall('GET', '/account', bob, { status: 200 });
    expect(suspended.json().data).toMatchObject({ account: { status: 'suspended' } });
    await dashboardCall('POST', '/keys', bob, { status: 403, code: 'account-inactive' }, { json: { name: 'x' } });

    // Every route: no token, a malformed or forged one, an unverified address, a request too large to read.
    for (const route of DASHBOARD_ROUTES) {
      const resource = route.path.replace('{keyId}', keyId);
      for (const token of [undefined, 'not-a-token', forged, `Bearer ${forged}`]) {
        await dashboardCall(route.method, resource, token, { status: 401, code: 'unauthenticated' });
      }
      await dashboardCall(route.method, resource, unverified, { status: 403, code: 'email-not-verified' });
      await dashboardCall(route.method, `${resource}?x=${'a'.repeat(20_000)}`, ada, {
        status: 400,
        code: 'invalid-parameter',
      });
    }
    // Unknown paths and methods below /api, with a token or without: the gateway's 404.
    for (const [method, resource, token] of [
      ['GET', '/nope', ada],
      ['DELETE', '/keys', ada],
      ['GET', `/keys/${keyId}`, undefined],
      ['PUT', '/account', ada],
    ] as const) {
      await dashboardCall(method, resource, token, { status: 404, code: 'not-found' });
    }
  }, 30_000);

  it('produced every documented (route, status, code) except those that cannot be driven locally', () => {
    const documented = documentedOutcomes(doc);
    const missing = documented.filter((o) => !produced.has(outcomeKey(o)) && !NOT_DRIVEN(o)).map(outcomeKey);
    expect(missing).toEqual([]);
    // The exceptions are few and each one is really not produced, so the list cannot hide a gap.
    const skipped = documented.filter(NOT_DRIVEN).map(outcomeKey);
    expect(skipped.filter((key) => produced.has(key))).toEqual([]);
    // Per route the firewall's 403 too, on both APIs.
    expect(skipped.length).toBeLessThanOrEqual(ROUTES.length * 3 + 1 + DASHBOARD_ROUTES.length * 5);
    // The dashboard's outcomes are in the document, so they were required above.
    expect(documented.filter((o) => dashboardRouteOf(o) && !NOT_DRIVEN(o)).length).toBeGreaterThan(
      DASHBOARD_ROUTES.length * 4,
    );
    // Every produced outcome of a route was checked against the document as it came.
    expect([...produced.keys()].filter((key) => key.startsWith('unmatched'))).toEqual(['unmatched 404 not-found']);
  });
});
