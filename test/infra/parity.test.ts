import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../../lambdas/core/http/dashboard-routes';
import { DASHBOARD_GATEWAY_RESPONSES, GATEWAY_RESPONSES } from '../../lambdas/core/http/gateway-responses';
import { API_BASE_PATH, ROUTES } from '../../lambdas/core/http/routes';
import { createLocalGateway } from '../../local-server/gateway';
import { logicalIdOf, propsOf, resourcesOf, SKIP_BUNDLING, type Synthesized, synthesize } from './synth';

/**
 * The local gateway of `npm start` and the synthesized API Gateway must answer alike: the same routes, and for
 * every gateway response type the same status, body and headers. Both read the same tables; this checks that
 * neither side reinterprets them.
 */
describe('parity of the local gateway and the synthesized API', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize(SKIP_BUNDLING);
  });
  afterAll(() => s.dispose());

  /** The public API's logical id: the dashboard's REST API has its own routes and gateway responses. */
  const publicApiId = () => logicalIdOf(s.fx.service.api.restApi);
  const dashboardApiId = () => logicalIdOf(s.fx.service.dashboardApi.restApi);

  const denyingAuthorizer = async (): Promise<APIGatewayAuthorizerResult> => ({
    principalId: 'anonymous',
    policyDocument: { Version: '2012-10-17', Statement: [] },
    context: {},
  });
  const unreachable = async () => {
    throw new Error('no handler runs in these tests');
  };
  const gateway = createLocalGateway({
    handlers: Object.fromEntries(ROUTES.map((r) => [r.id, unreachable])) as never,
    authorizer: denyingAuthorizer,
    requestId: () => 'req-parity',
    // Every token refused, as the Cognito authorizer refuses one it cannot verify.
    dashboard: {
      handlers: Object.fromEntries(DASHBOARD_ROUTES.map((r) => [r.id, unreachable])) as never,
      verifyToken: async () => undefined,
      pages: new Map(),
    },
  });

  /** What API Gateway does with a response template for the variables ours use: plain substitution. */
  function renderLikeApiGateway(template: string, context: Record<string, string>): string {
    return template.replace(/\$context\.([A-Za-z0-9_.]+)/g, (_, name: string) => context[name] ?? '');
  }

  /** API Gateway's header mapping: a quoted literal, or a context variable. */
  function headerValue(expression: string, context: Record<string, string>): string {
    return expression.startsWith("'") ? expression.slice(1, -1) : (context[expression.replace(/^context\./, '')] ?? '');
  }

  it.each([
    ['public', publicApiId, GATEWAY_RESPONSES],
    ['dashboard', dashboardApiId, DASHBOARD_GATEWAY_RESPONSES],
  ] as const)(
    'renders every synthesized gateway response of the %s API exactly as API Gateway would',
    (_, apiId, table) => {
      const responses = Object.values(resourcesOf(s.service, 'AWS::ApiGateway::GatewayResponse'))
        .map(propsOf)
        .filter((r) => (r.RestApiId as { Ref?: string }).Ref === apiId());
      expect(responses.length).toBeGreaterThan(10);
      const authorizer = { errorCode: 'invalid-api-key', errorMessage: 'The API key is not valid.' };
      const context = {
        requestId: 'req-parity',
        'authorizer.errorCode': authorizer.errorCode,
        'authorizer.errorMessage': authorizer.errorMessage,
      };
      for (const response of responses) {
        const type = String(response.ResponseType);
        const local = gateway.renderGateway(type as never, 'req-parity', authorizer, table);
        const template = (response.ResponseTemplates as Record<string, string>)['application/json'] ?? '';
        const headers = Object.fromEntries(
          Object.entries((response.ResponseParameters ?? {}) as Record<string, string>).map(([key, expression]) => [
            key.replace(/^gatewayresponse\.header\./, ''),
            headerValue(expression, context),
          ]),
        );
        // Without a StatusCode API Gateway keeps the failure's own status; the local gateway's failures are 500s.
        expect({ type, status: local.statusCode, body: local.body, headers: local.headers }).toEqual({
          type,
          status: response.StatusCode === undefined ? 500 : Number(response.StatusCode),
          body: renderLikeApiGateway(template, context),
          headers,
        });
        expect(JSON.parse(local.body).success).toBe(false);
      }
    },
  );

  const deployedRoutes = (apiId: string): string[] => {
    const resources = resourcesOf(s.service, 'AWS::ApiGateway::Resource');
    const pathOf = (id: string): string => {
      const resource = resources[id];
      if (!resource) return '';
      const props = propsOf(resource);
      const parent = props.ParentId as { Ref?: string } | { 'Fn::GetAtt': string[] };
      const parentPath = 'Ref' in parent && parent.Ref ? pathOf(parent.Ref) : '';
      return `${parentPath}/${props.PathPart as string}`;
    };
    return Object.values(resourcesOf(s.service, 'AWS::ApiGateway::Method'))
      .map(propsOf)
      .filter((m) => (m.RestApiId as { Ref?: string }).Ref === apiId && m.HttpMethod !== 'OPTIONS')
      .map((m) => `${m.HttpMethod as string} ${pathOf((m.ResourceId as { Ref: string }).Ref)}`)
      .sort();
  };

  it('routes exactly the methods and paths the API deploys', async () => {
    expect(deployedRoutes(publicApiId())).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());

    for (const route of ROUTES) {
      const path = `${API_BASE_PATH}${route.path.replace(/\{(\w+)\}/g, 'X')}`;
      const known = await gateway.handle({ method: 'GET', url: path, headers: { 'x-api-key': 'fxr_x' } });
      expect([route.path, known.statusCode]).toEqual([route.path, 401]);
      const wrongMethod = await gateway.handle({ method: 'POST', url: path, headers: { 'x-api-key': 'fxr_x' } });
      expect([route.path, wrongMethod.statusCode]).toEqual([route.path, 404]);
    }
  });

  it("routes exactly the dashboard API's methods and paths, each behind the token check", async () => {
    expect(deployedRoutes(dashboardApiId())).toEqual(DASHBOARD_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of DASHBOARD_ROUTES) {
      const url = `${DASHBOARD_BASE_PATH}${route.path.replace(/\{(\w+)\}/g, 'X')}`;
      const known = await gateway.handle({ method: route.method, url, headers: {}, body: '' });
      expect([route.id, known.statusCode, JSON.parse(known.body).error.code]).toEqual([
        route.id,
        401,
        'unauthenticated',
      ]);
      const wrongMethod = await gateway.handle({ method: 'PATCH', url, headers: {}, body: '' });
      expect([route.id, wrongMethod.statusCode]).toEqual([route.id, 404]);
    }
  });
});
