import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidParameterError } from '../domain/errors';
import { DASHBOARD_MAX_BODY_BYTES } from '../http/dashboard-routes';
import { headerValue } from '../http/headers';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { dashboardError } from './errors';
import { dashboardResponse, keyView } from './views';

const bodyError = (message: string) => new InvalidParameterError('body', message);

/** The `name` of a `{"name": "…"}` body; the store validates the name itself. */
export function keyNameOf(event: APIGatewayProxyEvent): string {
  const contentType = headerValue(event.headers, 'Content-Type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw bodyError('Send the body as JSON, with Content-Type: application/json.');
  }
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text) > DASHBOARD_MAX_BODY_BYTES) {
    throw bodyError(`The body must not be larger than ${DASHBOARD_MAX_BODY_BYTES} bytes.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bodyError('The body is not valid JSON.');
  }
  const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') throw new InvalidParameterError('name', 'Give the new key a name.');
  return name;
}

/** POST /api/keys: the full key is in this response only; the store keeps its hash and enforces the limits. */
export const endpoint = defineDashboardEndpoint<DashboardDeps>({
  route: 'keys-create',
  lambdaDeps: lambdaDashboardDeps,
  create:
    (deps) =>
    async ({ event, owner }) => {
      const name = keyNameOf(event);
      const account = await deps.accounts.provisionOwnedAccount(owner);
      try {
        const created = await deps.accounts.createKey(account.accountId, name, {
          creationLimit: deps.keyCreationLimit,
        });
        return dashboardResponse({ key: created.key, ...keyView(created.record) }, deps.clock(), 201);
      } catch (error) {
        throw dashboardError(error, account) ?? error;
      }
    },
});
