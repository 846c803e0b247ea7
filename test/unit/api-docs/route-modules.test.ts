import { join } from 'node:path';
import { ROUTE_MODULES } from '../../../lambdas/core/endpoints/route-modules';
import { ROUTES } from '../../../lambdas/core/http/routes';
import { endpointModule, PROJECT_ROOT } from '../../../lib/bundling';

const TAGS = ['Rates', 'Currencies', 'Account'];

describe('every public route has a complete module', () => {
  describe.each(ROUTES.map((route) => [route.id, route] as const))('%s', (id, route) => {
    const module = ROUTE_MODULES[id];

    it('exports the endpoint of its route', () => {
      expect(module.endpoint.route).toBe(id);
    });

    it('documents its tag, notes, refusals, response schema and example', () => {
      const docs = module.docs();
      expect(TAGS).toContain(docs.tag);
      expect(docs.notes.trim()).not.toBe('');
      expect(Array.isArray(docs.errors)).toBe(true);
      expect(docs.data.name).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(docs.data.schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(docs.example).toEqual(expect.any(Object));
    });

    it('documents every parameter it reads, each path parameter in the path', () => {
      const { parameters } = module.docs();
      for (const [name, parameter] of Object.entries(parameters)) {
        expect([name, parameter.doc.description.trim().length > 0]).toEqual([name, true]);
        expect([name, typeof parameter.doc.example]).toEqual([name, 'string']);
        expect([name, parameter.doc.schema.maxLength]).toEqual([name, expect.any(Number)]);
      }
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documentedInPath = Object.entries(parameters)
        .filter(([, parameter]) => parameter.in === 'path')
        .map(([name]) => name);
      expect(documentedInPath).toEqual(inPath);
    });

    it('is the module the local server and the bundles load by its path', async () => {
      const loaded = (await import(join(PROJECT_ROOT, endpointModule(id)))) as { endpoint: unknown };
      expect(loaded.endpoint).toBe(module.endpoint);
    });
  });

  it('gives each route a response schema of its own name', () => {
    const names = ROUTES.map((route) => ROUTE_MODULES[route.id].docs().data.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists no module without a route', () => {
    expect(Object.keys(ROUTE_MODULES).sort()).toEqual(ROUTES.map((route) => route.id).sort());
  });
});
