/**
 * How the local server's own SDK clients call the embedded store: an item operation travels as a store call (its
 * name and its input as DynamoDB's JSON) instead of an HTTP request the SDK builds, signs and parses and the
 * emulator parses, checks and answers again. The clients, their commands, their retries and deadlines and the
 * stores' code stay the SDK's; only the wire between two threads of one process is plain JSON. Other processes
 * (the admin CLI) still reach the store over HTTP on its port.
 */
// Why: docs/clever-parts.md#store-calls-in-the-local-server
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What the store thread receives for one item operation. */
export interface StoreCall {
  operation: string;
  /** The operation's input as DynamoDB's JSON (what the SDK would have sent as the request's body). */
  body: string;
  /**
   * Read by what inspects requests by target (the request counts, the tests' fault injection); a store call has
   * no method, protocol or host, so the SDK's HTTP middleware (signing, content length, user agent) passes it by.
   */
  headers: { 'x-amz-target': string };
}

/** The store's answer to a store call; non-2xx answers carry DynamoDB's JSON error, as over HTTP. */
export interface StoreAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/**
 * The operations that travel as store calls: the item operations the services use. Table operations (made once
 * at start-up) keep the SDK's wire protocol, whose answers carry dates and nested descriptions.
 */
export const STORE_CALL_OPERATIONS: ReadonlySet<string> = new Set([
  'BatchGetItem',
  'BatchWriteItem',
  'DeleteItem',
  'GetItem',
  'PutItem',
  'Query',
  'Scan',
  'UpdateItem',
]);

const TARGET_PREFIX = 'DynamoDB_20120810.';

/** The store call of `operation` with `body`, its input as DynamoDB's JSON. */
export function storeCallOf(operation: string, body: string): StoreCall {
  return { operation, body, headers: { 'x-amz-target': TARGET_PREFIX + operation } };
}

export function isStoreCall(request: unknown): request is StoreCall {
  return typeof request === 'object' && request !== null && 'operation' in request && !('method' in request);
}

/**
 * Whether an input needs more than a plain `JSON.stringify` to read as the SDK's serializer writes it: bytes
 * (base64 in DynamoDB's JSON) or nulls (which it leaves out of members and maps). Walking an admission's input and
 * then serializing it plainly took about a third less time than a replacer called on every member.
 */
function needsCare(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  if (value instanceof Uint8Array) return true;
  if (Array.isArray(value)) return value.some(needsCare);
  for (const key in value) if (needsCare((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * Bytes as base64 and no null members, as the SDK's serializer writes them. The holder's own member is read, not
 * `value`: `JSON.stringify` has already turned a Buffer into `{ type, data }` through its `toJSON` by then.
 */
function asTheSdkWrites(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (original instanceof Uint8Array) {
    return Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64');
  }
  // The SDK leaves out a member or map entry that is null, and keeps a null in a list.
  if (value === null && !Array.isArray(this)) return undefined;
  return value;
}

function binaryFromBase64(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64'));
  if (key === 'BS' && Array.isArray(value))
    return value.map((one) => new Uint8Array(Buffer.from(String(one), 'base64')));
  return value;
}

/** A binary member's name in DynamoDB's JSON; without one, the answer parses as it is. */
const BINARY_MEMBER = /"BS?":/;

interface OperationSchema {
  name: string;
}

/** The part of the SDK's protocol interface its serde middleware calls. */
interface SdkProtocol {
  serializeRequest(operation: OperationSchema, input: unknown, context: unknown): Promise<unknown>;
  deserializeResponse(operation: OperationSchema, context: unknown, response: unknown): Promise<unknown>;
  setSerdeContext(context: unknown): void;
}

/** A store answer's body as text, whether it crossed the thread as text or as bytes. */
export function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/**
 * The SDK protocol of a local client: item operations become store calls, and a 2xx answer is their output as the
 * store wrote it. Everything else (table operations, and every error answer, whose exception classes and retry
 * decisions are the SDK's to make) goes to the client's own protocol unchanged.
 */
export class StoreCallProtocol implements SdkProtocol {
  constructor(private readonly wire: SdkProtocol) {}

  setSerdeContext(context: unknown): void {
    this.wire.setSerdeContext(context);
  }

  async serializeRequest(operation: OperationSchema, input: unknown, context: unknown): Promise<unknown> {
    if (!STORE_CALL_OPERATIONS.has(operation.name)) return this.wire.serializeRequest(operation, input, context);
    return storeCallOf(
      operation.name,
      needsCare(input) ? JSON.stringify(input, asTheSdkWrites) : JSON.stringify(input),
    );
  }

  async deserializeResponse(operation: OperationSchema, context: unknown, response: unknown): Promise<unknown> {
    const answer = response as StoreAnswer;
    if (!STORE_CALL_OPERATIONS.has(operation.name) || answer.statusCode < 200 || answer.statusCode > 299) {
      return this.wire.deserializeResponse(operation, context, { ...answer, body: wireBody(answer.body) });
    }
    const text = bodyText(answer.body);
    const output = (text ? JSON.parse(text, BINARY_MEMBER.test(text) ? binaryFromBase64 : undefined) : {}) as Record<
      string,
      unknown
    >;
    output.$metadata = { httpStatusCode: answer.statusCode, requestId: answer.headers['x-amzn-requestid'] };
    return output;
  }
}

/** The SDK's protocols read a response's body as bytes. */
function wireBody(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

type LocalClient = DynamoDBClient | DynamoDBDocumentClient;

/**
 * Has `client` (and whatever shares its config: a document client shares its low-level client's) send its item
 * operations as store calls. Its transport must answer them (the local server's transports do).
 */
export function sendStoreCalls<T extends LocalClient>(client: T): T {
  const config = client.config as unknown as { protocol: SdkProtocol };
  if (!(config.protocol instanceof StoreCallProtocol)) config.protocol = new StoreCallProtocol(config.protocol);
  return client;
}
