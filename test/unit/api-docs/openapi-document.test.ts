import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bodyValidator } from '../../../api-docs/inspect';
import { buildOpenApiDocument, type OpenApiDocument, type ParameterObject } from '../../../api-docs/openapi';
import { ERROR_CATALOG } from '../../../lambdas/core/domain/errors';
import { ROUTE_PARAMETERS } from '../../../lambdas/core/http/parameters';
import { ROUTES } from '../../../lambdas/core/http/routes';

const ROOT = resolve(__dirname, '../../..');
const doc = buildOpenApiDocument();
const operationOf = (route: (typeof ROUTES)[number]) => doc.paths[route.path]?.[route.method.toLowerCase()];

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

  it('judges a document by the version it declares (a 3.0 one as 3.0), so the 3.1 verdict is not a default', () => {
    const older = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(validate(older).result).toEqual({ valid: true, version: '3.0' });
  });
});

describe('the OpenAPI document against the route registry and the endpoints', () => {
  /** The query parameters an endpoint reads: the names it hands to singleQuery. */
  function queryNamesRead(routeId: string): string[] {
    const source = readFileSync(join(ROOT, 'lambdas/core/endpoints', `${routeId}.ts`), 'utf8');
    return [...source.matchAll(/singleQuery\(\s*event\s*,\s*\[([^\]]*)\]\s*\)/g)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/'([^']+)'/g)].map((n) => n[1] as string),
    );
  }
  const namesIn = (parameters: readonly ParameterObject[], place: string) =>
    parameters
      .filter((p) => p.in === place)
      .map((p) => p.name)
      .sort();

  it('has exactly the registry routes, each with its method only', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    for (const route of ROUTES) {
      expect(Object.keys(doc.paths[route.path] ?? {})).toEqual([route.method.toLowerCase()]);
      expect(operationOf(route)).toMatchObject({ operationId: route.id, summary: route.summary });
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
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
    expect(queryNamesRead('pair')).toEqual(['amount']);
    expect(queryNamesRead('latest')).toEqual(['base']);
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
      const cacheControl = responses['200']?.headers?.['Cache-Control'] as { schema?: { const?: string } } | undefined;
      expect(cacheControl?.schema?.const).toBe(route.cacheControl);
    }
  });
});

describe('the error responses of the OpenAPI document', () => {
  it('lists each code under the status of the catalog; only the gateway timeout differs (504)', () => {
    for (const route of ROUTES) {
      for (const [status, response] of Object.entries(operationOf(route)?.responses ?? {})) {
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
    for (const route of ROUTES) {
      for (const response of Object.values(operationOf(route)?.responses ?? {})) {
        for (const code of response['x-error-codes'] ?? []) named.add(code);
      }
    }
    expect([...named].sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    expect(doc['x-error-catalog'].map((e) => [e.code, e.status, e.message])).toEqual(
      Object.entries(ERROR_CATALOG).map(([code, e]) => [code, e.status, e.message]),
    );
  });

  it('narrows error.code to the listed codes, and the codes are the ones the description explains', () => {
    for (const route of ROUTES) {
      for (const [status, response] of Object.entries(operationOf(route)?.responses ?? {})) {
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
