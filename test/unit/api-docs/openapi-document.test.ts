import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bodyValidator } from '../../../api-docs/inspect';
import {
  buildOpenApiDocument,
  DASHBOARD_SECURITY_SCHEME,
  DASHBOARD_TAG,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  SECURITY_SCHEME,
} from '../../../api-docs/openapi';
import { successSchemaName } from '../../../api-docs/schemas';
import { ROUTE_PARAMETERS } from '../../../api-docs/schemas-public';
import { KEY_CREATION_LIMIT } from '../../../lambdas/core/dashboard/deps';
import { ERROR_CATALOG } from '../../../lambdas/core/domain/errors';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../../../lambdas/core/http/dashboard-routes';
import { ROUTES, routeById } from '../../../lambdas/core/http/routes';
import { AccountsStore, InvalidAccountInputError } from '../../../lambdas/core/store/accounts-store';

const ROOT = resolve(__dirname, '../../..');
const doc = buildOpenApiDocument();
const operationOf = (route: { path: string; method: string }) => doc.paths[route.path]?.[route.method.toLowerCase()];
/** Every operation of the document, public and dashboard. */
const ALL_OPERATIONS: { id: string; path: string; method: string; operation: OperationObject }[] = Object.entries(
  doc.paths,
).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ id: operation.operationId, path, method, operation })),
);

/**
 * The validator ships ES modules only, which jest's CommonJS runtime cannot load: it runs in a child process,
 * through the same command line anyone can use.
 */
function validate(document: unknown): { status: number | null; result: { valid: boolean; version: string } } {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'api-docs/validate-openapi.ts', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return { status: run.status, result: JSON.parse(run.stdout) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI document against the official OpenAPI 3.1 schema', () => {
  it('is valid OpenAPI 3.1', () => {
    const { status, result } = validate(doc);
    expect(result).toEqual({ valid: true, version: '3.1' });
    expect(status).toBe(0);
  });

  it('is refused when broken, so the check can fail', () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown> & OpenApiDocument;
    const latest = broken.paths['/rates/latest']?.get as unknown as { parameters: { in: string }[] };
    (latest.parameters[0] as { in: string }).in = 'body';
    delete (broken as Partial<OpenApiDocument>).info;
    const { status, result } = validate(broken);
    expect(result).toMatchObject({ valid: false, version: '3.1' });
    expect(status).toBe(1);
  });

  it('is refused when a dashboard operation is broken, so the check covers that part too', () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown> & OpenApiDocument;
    const create = broken.paths['/keys']?.post as unknown as { requestBody: { content?: unknown } };
    delete create.requestBody.content;
    const { status, result } = validate(broken);
    expect(result).toMatchObject({ valid: false, version: '3.1' });
    expect(status).toBe(1);
  });

  it('judges a document by the version it declares (a 3.0 one as 3.0), so the 3.1 verdict is not a default', () => {
    const older = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(validate(older).result).toEqual({ valid: true, version: '3.0' });
  });
});

describe('the OpenAPI document against the route registry and the endpoints', () => {
  /** The query parameters an endpoint reads: the names it hands to singleQuery or pathAndQuery. */
  function queryNamesRead(routeId: string): string[] {
    const source = readFileSync(join(ROOT, 'lambdas/core/endpoints', `${routeId}.ts`), 'utf8');
    return [...source.matchAll(/(?:singleQuery|pathAndQuery)\(\s*event\s*,\s*\[([^\]]*)\]\s*\)/g)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/'([^']+)'/g)].map((n) => n[1] as string),
    );
  }
  const namesIn = (parameters: readonly ParameterObject[], place: string) =>
    parameters
      .filter((p) => p.in === place)
      .map((p) => p.name)
      .sort();

  it('has exactly the registry routes, each with its method only', () => {
    const registered = [...ROUTES, ...DASHBOARD_ROUTES];
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(registered.map((r) => r.path))].sort());
    for (const route of ROUTES) {
      expect(Object.keys(doc.paths[route.path] ?? {})).toEqual([route.method.toLowerCase()]);
      expect(operationOf(route)).toMatchObject({ operationId: route.id, summary: route.summary });
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      const methods = registered.filter((r) => r.path === path).map((r) => r.method.toLowerCase());
      expect({ path, methods: Object.keys(item).sort() }).toEqual({ path, methods: methods.sort() });
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
    const ids = ALL_OPERATIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s documents every path parameter and every query parameter its endpoint reads, and no other',
    (id, route) => {
      const parameters = operationOf(route)?.parameters ?? [];
      const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(namesIn(parameters, 'path')).toEqual(pathNames);
      const read = queryNamesRead(id);
      expect(namesIn(parameters, 'query')).toEqual([...read].sort());
      expect(namesIn(parameters, 'header')).toEqual(route.etag ? ['If-None-Match'] : []);
      expect(parameters.filter((p) => !['path', 'query', 'header'].includes(p.in))).toEqual([]);
      for (const p of parameters.filter((p) => p.in === 'path')) expect(p.required).toBe(true);
    },
  );

  it('finds the query parameters an endpoint reads (the source scan is not vacuous)', () => {
    expect(queryNamesRead('pair')).toEqual(['amount', 'expand']);
    expect(queryNamesRead('latest')).toEqual(['base', 'expand']);
    expect(queryNamesRead('history')).toEqual(['fallback', 'expand']);
    expect(queryNamesRead('quota')).toEqual([]);
  });

  it("documents the readers' defaults: a query parameter with a value when absent is optional, with that default", () => {
    for (const route of ROUTES) {
      for (const [name, spec] of Object.entries(ROUTE_PARAMETERS[route.id])) {
        const documented = operationOf(route)?.parameters.find((p) => p.name === name);
        expect(documented?.in).toBe(spec.in);
        if (spec.in === 'query') expect(documented?.required).toBe(!spec.absent);
        expect(documented?.schema.default).toBe(spec.absent?.());
      }
    }
    const latest = doc.paths['/rates/latest']?.get?.parameters.find((p) => p.name === 'base');
    expect(latest?.schema).toMatchObject({ default: 'EUR', maxLength: 64 });
    const locale = doc.paths['/currencies']?.get?.parameters.find((p) => p.name === 'locale');
    expect(locale?.schema).toMatchObject({ default: 'en', enum: ['en', 'de'] });
  });

  it('documents 304 exactly where the route carries an ETag, and its Cache-Control on 200', () => {
    for (const route of ROUTES) {
      const responses = operationOf(route)?.responses ?? {};
      expect('304' in responses).toBe(route.etag);
      const cacheControl = responses['200']?.headers?.['Cache-Control'] as
        | { schema?: { const?: string; enum?: string[] } }
        | undefined;
      // A route whose answers can carry a shorter policy documents both values; the registry's comes first.
      expect(cacheControl?.schema?.const ?? cacheControl?.schema?.enum?.[0]).toBe(route.cacheControl);
    }
    const history = operationOf(routeById('history'))?.responses['200']?.headers?.['Cache-Control'] as {
      schema?: { enum?: string[] };
    };
    expect(history.schema?.enum).toEqual(['private, max-age=604800, immutable', 'private, max-age=3600']);
  });

  it('documents the weekend and holiday policy, the provenance fields and GET /v1/sources', () => {
    const history = operationOf(routeById('history'));
    for (const words of [
      'TARGET business days',
      '16:00 CET',
      'Good Friday',
      'Easter Monday',
      '1 May',
      '25 and 26 December',
      'currency-api publishes every day',
      'at most 7 days back',
      'effective_date',
    ]) {
      expect([words, history?.description.includes(words)]).toEqual([words, true]);
    }
    const fallback = history?.parameters.find((p) => p.name === 'fallback');
    expect(fallback).toMatchObject({ in: 'query', required: false, schema: { enum: ['previous'] } });
    for (const id of ['latest', 'pair', 'history', 'enriched'] as const) {
      const expand = operationOf(routeById(id))?.parameters.find((p) => p.name === 'expand');
      expect([id, expand?.required, expand?.schema.enum]).toEqual([id, false, ['sources']]);
      expect(expand?.description).toMatch(/EUR has no entry: it is the pivot both sources quote against/);
      const data = doc.components.schemas[successSchemaName(id).replace(/Response$/, '')] as {
        properties: Record<string, unknown>;
        required: string[];
      };
      expect([id, 'published_at' in data.properties, data.required.includes('published_at')]).toEqual([id, true, true]);
      expect([id, 'sources' in data.properties, data.required.includes('sources')]).toEqual([id, true, false]);
    }
    const latest = doc.components.schemas.RateTable as { required: string[] };
    expect(latest.required).toContain('next_update_at');
    const sources = operationOf(routeById('sources'));
    expect(sources?.parameters.filter((p) => p.in !== 'header')).toEqual([]);
    expect(Object.keys(sources?.responses ?? {})).toEqual(expect.arrayContaining(['200', '304', '401', '429', '503']));
  });
});

describe('the error responses of the OpenAPI document', () => {
  it('lists each code under the status of the catalog; only the gateway timeout differs (504)', () => {
    for (const route of ALL_OPERATIONS) {
      for (const [status, response] of Object.entries(route.operation.responses)) {
        for (const code of response['x-error-codes'] ?? []) {
          const expected = status === '504' ? 'service-unavailable' : code;
          expect([route.id, code, Number(status)]).toEqual([
            route.id,
            expected,
            status === '504' ? 504 : ERROR_CATALOG[code].status,
          ]);
        }
      }
    }
  });

  it('names every code of the catalog somewhere, and carries the catalog itself', () => {
    const named = new Set<string>(doc.components.responses.NotFound?.['x-error-codes'] ?? []);
    for (const { operation } of ALL_OPERATIONS) {
      for (const response of Object.values(operation.responses)) {
        for (const code of response['x-error-codes'] ?? []) named.add(code);
      }
    }
    expect([...named].sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    expect(doc['x-error-catalog'].map((e) => [e.code, e.status, e.message])).toEqual(
      Object.entries(ERROR_CATALOG).map(([code, e]) => [code, e.status, e.message]),
    );
  });

  it('narrows error.code to the listed codes, and the codes are the ones the description explains', () => {
    for (const { operation } of ALL_OPERATIONS) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const codes = response['x-error-codes'];
        if (!codes) continue;
        const schema = response.content?.['application/json'].schema as {
          properties: { error: { properties: { code: { enum: string[] } } } };
        };
        expect(schema.properties.error.properties.code.enum).toEqual(codes);
        for (const code of codes) expect(response.description).toContain(`\`${code}\``);
        expect(status >= '400').toBe(true);
      }
    }
  });

  it('answers quota-exceeded on every route that counts toward the month, and only there', () => {
    for (const route of ROUTES) {
      const codes = operationOf(route)?.responses['429']?.['x-error-codes'];
      expect(codes).toEqual(
        route.countsTowardMonth ? ['quota-exceeded', 'rate-limit-exceeded'] : ['rate-limit-exceeded'],
      );
    }
  });
});

describe('the time series in the OpenAPI document', () => {
  const timeseries = operationOf(routeById('timeseries'));
  const ok = timeseries?.responses['200'];

  it('requires start and end, offers format json or csv, and names every refusal of the route', () => {
    const byName = Object.fromEntries((timeseries?.parameters ?? []).map((p) => [p.name, p]));
    expect([byName.start?.in, byName.start?.required, byName.end?.required]).toEqual(['query', true, true]);
    expect(byName.format).toMatchObject({ in: 'query', required: false, schema: { enum: ['json', 'csv'] } });
    expect(Object.keys(timeseries?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '304', '400', '401', '403', '404', '422', '429', '503']),
    );
    expect(timeseries?.responses['403']?.['x-error-codes']).toContain('plan-upgrade-required');
    expect(timeseries?.responses['404']?.['x-error-codes']).toContain('no-data-available');
    expect(timeseries?.description).toMatch(/at most 6 reads of the rate store when nothing is cached/);
  });

  it('documents the CSV variant, Vary: Accept, the attachment name and both Cache-Control values', () => {
    const csv = ok?.content?.['text/csv'];
    expect(new RegExp(String(csv?.schema.pattern)).test(String(csv?.example))).toBe(true);
    expect(new RegExp(String(csv?.schema.pattern)).test('date,rate\n2026-01-02,1.1\n')).toBe(false);
    expect(ok?.headers?.Vary).toMatchObject({ schema: { const: 'Accept' }, required: true });
    expect(ok?.headers?.['Content-Disposition']).toMatchObject({ required: false });
    const cacheControl = ok?.headers?.['Cache-Control'] as { schema?: { enum?: string[] } };
    expect(cacheControl.schema?.enum).toEqual(['private, max-age=604800, immutable', 'private, max-age=3600']);
  });

  it('closes the series body: a point without its date fails', () => {
    const validator = bodyValidator(doc);
    const example = ok?.content?.['application/json'].example as { data: { rates: unknown[] } };
    const broken = { ...example, data: { ...example.data, rates: [{ rate: 1 }] } };
    expect(validator.response('/rates/timeseries/{from}/{to}', 'GET', '200', broken)).not.toEqual([]);
  });
});

describe('the examples of the OpenAPI document', () => {
  const validator = bodyValidator(doc);

  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s: the 200 example conforms to its schema',
    (_, route) => {
      const ok = operationOf(route)?.responses['200']?.content?.['application/json'];
      expect(ok?.example).toBeDefined();
      expect(validator.response(route.path, route.method, '200', ok?.example)).toEqual([]);
    },
  );

  it('every error example conforms to its schema, and a wrong code does not', () => {
    for (const route of ROUTES) {
      for (const [status, response] of Object.entries(operationOf(route)?.responses ?? {})) {
        const examples = response.content?.['application/json'].examples ?? {};
        for (const example of Object.values(examples) as { value: unknown }[]) {
          expect(validator.response(route.path, route.method, status, example.value)).toEqual([]);
        }
      }
    }
    const wrong = { success: false, error: { code: 'not-found', message: 'No such endpoint.' } };
    expect(validator.response('/rates/latest', 'GET', '400', wrong)).not.toEqual([]);
  });

  it('closes the bodies: an undocumented field fails', () => {
    const example = doc.paths['/quota']?.get?.responses['200']?.content?.['application/json'].example as object;
    expect(validator.response('/quota', 'GET', '200', { ...example, extra: 1 })).not.toEqual([]);
  });

  it('keeps the JSON it serves byte-stable', () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });
});

describe('the dashboard API in the OpenAPI document', () => {
  const validator = bodyValidator(doc);
  const dashboardOperation = (id: string) => {
    const route = DASHBOARD_ROUTES.find((r) => r.id === id);
    if (!route) throw new Error(`no dashboard route ${id}`);
    return { route, operation: operationOf(route) as OperationObject };
  };
  const usesToken = (operation: OperationObject) =>
    (operation.security ?? []).some((requirement) => DASHBOARD_SECURITY_SCHEME in requirement);

  it('has one operation per dashboard route, each taking the ID token and served below /api', () => {
    for (const route of DASHBOARD_ROUTES) {
      const operation = operationOf(route);
      expect(operation).toMatchObject({
        operationId: route.id,
        summary: route.summary,
        tags: [DASHBOARD_TAG],
        servers: [expect.objectContaining({ url: DASHBOARD_BASE_PATH })],
        security: [{ [DASHBOARD_SECURITY_SCHEME]: [] }],
      });
    }
    const withToken = ALL_OPERATIONS.filter((o) => usesToken(o.operation));
    expect(withToken.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      DASHBOARD_ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    expect(doc.components.securitySchemes[DASHBOARD_SECURITY_SCHEME]).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.tags.map((t) => t.name)).toContain(DASHBOARD_TAG);
  });

  it('leaves the public operations on the API key and the /v1 server', () => {
    const publicOperations = ROUTES.map((route) => operationOf(route) as OperationObject);
    expect(publicOperations).toHaveLength(ROUTES.length);
    for (const operation of publicOperations) {
      expect(usesToken(operation)).toBe(false);
      expect(operation.security).toBeUndefined();
      expect(operation.servers).toBeUndefined();
      expect(operation.tags).not.toContain(DASHBOARD_TAG);
    }
    expect(doc.security).toEqual([{ [SECURITY_SCHEME]: [] }]);
  });

  it("documents each route's success status (201 for a created key) and its path parameters", () => {
    for (const route of DASHBOARD_ROUTES) {
      const operation = operationOf(route) as OperationObject;
      const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      expect({ id: route.id, success }).toEqual({ id: route.id, success: [String(route.successStatus)] });
      const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(operation.parameters.map((p) => [p.name, p.in, p.required])).toEqual(
        pathNames.map((name) => [name, 'path', true]),
      );
      expect(operation.requestBody !== undefined).toBe(route.body);
    }
    expect(Object.keys(dashboardOperation('keys-create').operation.responses)).toContain('201');
  });

  it('answers every route with the access errors and only the endpoint errors each route has', () => {
    const common = {
      '400': ['invalid-parameter'],
      '401': ['unauthenticated'],
      // The web firewall in front of the stage (WAF_FILTERED).
      '403': ['email-not-verified', 'request-blocked'],
      '429': ['rate-limit-exceeded'],
      '500': ['internal-error'],
      '503': ['service-unavailable'],
      '504': ['service-unavailable'],
    };
    const expected: Record<string, Record<string, string[]>> = {
      account: common,
      'keys-list': common,
      'keys-create': {
        ...common,
        '403': ['account-inactive', 'email-not-verified', 'request-blocked'],
        '409': ['key-limit-reached'],
      },
      'keys-revoke': { ...common, '404': ['not-found'] },
      plans: common,
    };
    for (const route of DASHBOARD_ROUTES) {
      const errors = Object.fromEntries(
        Object.entries(operationOf(route)?.responses ?? {}).flatMap(([status, response]) =>
          response['x-error-codes'] ? [[status, response['x-error-codes']]] : [],
        ),
      );
      expect({ id: route.id, errors }).toEqual({ id: route.id, errors: expected[route.id] });
    }
  });

  it('sends no rate-limit headers, Retry-After on every 429, and says no-store everywhere', () => {
    for (const route of DASHBOARD_ROUTES) {
      for (const [status, response] of Object.entries(operationOf(route)?.responses ?? {})) {
        const names = Object.keys(response.headers ?? {});
        expect(names.filter((name) => /RateLimit/.test(name))).toEqual([]);
        expect(names.includes('Retry-After')).toBe(status === '429');
        const cacheControl = response.headers?.['Cache-Control'] as { schema?: { const?: string } } | undefined;
        expect(cacheControl?.schema?.const).toBe('no-store');
      }
    }
  });

  it('explains the dashboard meaning of shared codes, and the creation limit from the dashboard functions', () => {
    const revoke = dashboardOperation('keys-revoke').operation;
    expect(revoke.responses['404']?.description).toContain("another account's key");
    expect(revoke.description).toContain('within 60 seconds');
    const create = dashboardOperation('keys-create').operation;
    const limit = `${KEY_CREATION_LIMIT.max} new keys per account in any 60 minutes (a rolling window`;
    expect(create.responses['429']?.description).toContain(limit);
    expect(create.responses['403']?.description).toContain('suspended');
    expect(create.description).toContain('The full key is shown once');
    const tag = doc.tags.find((t) => t.name === DASHBOARD_TAG)?.description ?? '';
    for (const phrase of ['Cognito ID token', 'not for API-key clients', 'shown once', 'within 60 seconds', limit]) {
      expect(tag).toContain(phrase);
    }
    // The public routes keep the public meaning.
    expect(doc.paths['/quota']?.get?.responses['429']?.description).not.toContain('key-creation');
  });

  it('states the creation limit the dashboard functions apply, whatever it is', () => {
    jest.isolateModules(() => {
      jest.doMock('../../../lambdas/core/dashboard/deps', () => ({
        ...jest.requireActual('../../../lambdas/core/dashboard/deps'),
        KEY_CREATION_LIMIT: { max: 3, windowMs: 30 * 60 * 1000 },
      }));
      const { buildOpenApiDocument: build } =
        require('../../../api-docs/openapi') as typeof import('../../../api-docs/openapi');
      const other = build();
      const tag = other.tags.find((t) => t.name === DASHBOARD_TAG)?.description ?? '';
      expect(tag).toContain('3 new keys per account in any 30 minutes');
      expect(tag).not.toContain(`${KEY_CREATION_LIMIT.max} new keys`);
    });
  });

  describe('the body of POST /api/keys', () => {
    const check = (body: unknown) => validator.request('/keys', 'POST', body);

    it('accepts a name of 1 to 64 printable ASCII characters, and refuses a 65-character one', () => {
      expect(check({ name: 'a' })).toEqual([]);
      expect(check({ name: 'x'.repeat(64) })).toEqual([]);
      expect(check({ name: 'my laptop (2) ~!' })).toEqual([]);
      expect(check({ name: 'x'.repeat(65) })).not.toEqual([]);
      for (const bad of [{}, { name: '' }, { name: '   ' }, { name: 'café' }, { name: 'tab\there' }, { name: 7 }]) {
        expect({ bad, problems: check(bad).length > 0 }).toEqual({ bad, problems: true });
      }
      expect(check({ name: 'a', extra: true })).not.toEqual([]);
    });

    it("agrees with the accounts store's check of names: no name it accepts is refused by the store", async () => {
      const noStore = new Error('no store: the name passed the check');
      const client = { send: () => Promise.reject(noStore) } as unknown as ConstructorParameters<
        typeof AccountsStore
      >[0];
      const store = new AccountsStore(client, 'accounts', {
        clock: () => new Date(),
        randomBytes: (n) => new Uint8Array(n),
      });
      const storeAccepts = (name: string) =>
        store.createKey('acc_x', name).then(
          () => true,
          (error: unknown) => {
            if (error === noStore) return true;
            if (error instanceof InvalidAccountInputError) return false;
            throw error;
          },
        );
      const names = [
        'a',
        'x'.repeat(64),
        'x'.repeat(65),
        '',
        '   ',
        ' padded ',
        ` ${'y'.repeat(64)} `,
        'café',
        'a\tb',
        '~',
      ];
      const verdicts = await Promise.all(
        names.map(async (name) => ({ name, schema: check({ name }).length === 0, store: await storeAccepts(name) })),
      );
      for (const { name, schema, store: accepted } of verdicts) {
        // The store trims first; the schema describes the trimmed name.
        if (schema) expect({ name, store: accepted }).toEqual({ name, store: true });
        if (accepted) expect({ name, trimmed: check({ name: name.trim() }) }).toEqual({ name, trimmed: [] });
      }
      expect(verdicts.filter((v) => v.store).length).toBeGreaterThan(0);
      expect(verdicts.filter((v) => !v.store).length).toBeGreaterThan(0);
    });
  });

  describe('its examples and schemas', () => {
    it.each(DASHBOARD_ROUTES.map((route) => [route.id, route] as const))(
      '%s: the success example conforms to its schema',
      (_, route) => {
        const ok = operationOf(route)?.responses[String(route.successStatus)]?.content?.['application/json'];
        expect(ok?.example).toMatchObject({ success: true, meta: { timestamp: expect.any(String) } });
        expect(validator.response(route.path, route.method, String(route.successStatus), ok?.example)).toEqual([]);
      },
    );

    it('every error example and the request example conform to their schemas', () => {
      for (const route of DASHBOARD_ROUTES) {
        for (const [status, response] of Object.entries(operationOf(route)?.responses ?? {})) {
          for (const example of Object.values(response.content?.['application/json'].examples ?? {})) {
            expect(validator.response(route.path, route.method, status, (example as { value: unknown }).value)).toEqual(
              [],
            );
          }
        }
      }
      const body = dashboardOperation('keys-create').operation.requestBody?.content['application/json'].example;
      expect(validator.request('/keys', 'POST', body)).toEqual([]);
    });

    it('refuses what the endpoints never send: extra fields, a revoked key without its date, a stray reason', () => {
      const example = (id: string) => {
        const { route, operation } = dashboardOperation(id);
        return structuredClone(
          operation.responses[String(route.successStatus)]?.content?.['application/json'].example,
        ) as { data: Record<string, unknown> };
      };
      const account = example('account');
      account.data.extra = 1;
      expect(validator.response('/account', 'GET', '200', account)).not.toEqual([]);

      const list = example('keys-list') as { data: { keys: Record<string, unknown>[]; can_create: boolean } };
      expect(list.data.keys.some((key) => key.status === 'revoked')).toBe(true);
      const withoutDate = structuredClone(list);
      for (const key of withoutDate.data.keys) delete key.revoked_at;
      expect(validator.response('/keys', 'GET', '200', withoutDate)).not.toEqual([]);
      const both = structuredClone(list);
      both.data.can_create = true;
      expect(validator.response('/keys', 'GET', '200', both)).not.toEqual([]);

      const created = example('keys-create');
      expect(validator.response('/keys', 'POST', '201', created)).toEqual([]);
      created.data.status = 'revoked';
      expect(validator.response('/keys', 'POST', '201', created)).not.toEqual([]);
      const revoked = example('keys-revoke');
      delete revoked.data.already_revoked;
      expect(validator.response('/keys/{keyId}', 'DELETE', '200', revoked)).not.toEqual([]);
    });
  });
});
