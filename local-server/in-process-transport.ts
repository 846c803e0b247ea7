import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import type { StoreAnswer, StoreCall } from './store-calls';

/** The parts of the SDK's HTTP request this transport reads. */
export interface TransportRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What a local transport carries: an HTTP request the SDK built, or a store call (store-calls.ts). */
export type LocalRequest = TransportRequest | StoreCall;
export type LocalResponse = TransportResponse | StoreAnswer;

/**
 * The DynamoDB operation a request names in its target header (`DynamoDB_20120810.UpdateItem` → `UpdateItem`).
 * The SDK writes the header in lower case; a hand-built request may capitalise it.
 */
export function operationOf(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const target = headers['x-amz-target'] ?? headers['X-Amz-Target'];
  return target ? target.slice(target.lastIndexOf('.') + 1) : undefined;
}

/**
 * What the SDK asks of a request handler besides `handle`: a transport with no sockets and no settings of its own
 * has nothing to configure or release.
 */
export abstract class LocalRequestHandler {
  /** An HTTP request the SDK built, or a store call (store-calls.ts) of a client that sends them. */
  abstract handle(request: LocalRequest): Promise<{ response: LocalResponse }>;

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}
}

/**
 * The request as the emulator's listener reads it: headers, method and URL, then the body as one `data` event and
 * `end`, emitted once the listener has subscribed. A stream would carry the same for several times the cost.
 */
class BufferedRequest extends EventEmitter {
  constructor(
    readonly headers: IncomingHttpHeaders,
    readonly method: string,
    readonly url: string,
    body: Buffer,
  ) {
    super();
    process.nextTick(() => {
      if (body.length > 0) this.emit('data', body);
      this.emit('end');
    });
  }
}

/**
 * An SDK request handler that hands each DynamoDB request to the embedded emulator's HTTP request listener in this
 * process, instead of writing it to a loopback socket that the same process then reads back. The request is the
 * one the SDK built and signed, and the emulator parses and answers it exactly as it does over TCP; only the two
 * socket hops (and their HTTP framing on both ends) are skipped. Other processes (the admin CLI) still use the port.
 */
export class InProcessTransport extends LocalRequestHandler {
  constructor(private readonly listener: RequestListener) {
    super();
  }

  handle(request: TransportRequest): Promise<{ response: TransportResponse }> {
    return new Promise((resolve, reject) => {
      const body = bodyBuffer(request.body);
      const headers: IncomingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
      const incoming = new BufferedRequest(headers, request.method, pathWithQuery(request), body);

      const outHeaders: Record<string, string> = {};
      const outgoing = {
        statusCode: 200,
        setHeader(name: string, value: unknown) {
          outHeaders[name.toLowerCase()] = String(value);
        },
        removeHeader(name: string) {
          delete outHeaders[name.toLowerCase()];
        },
        // No connection to close: the request's body is whole, so the listener always ends the answer.
        once() {
          return outgoing;
        },
        end(chunk?: string | Uint8Array) {
          const data = chunk === undefined ? new Uint8Array() : exactBytes(chunk);
          resolve({ response: { statusCode: outgoing.statusCode, headers: outHeaders, body: data } });
        },
      };
      try {
        this.listener(incoming as never, outgoing as never);
      } catch (error) {
        reject(error);
      }
    });
  }
}

/**
 * The bytes in a buffer of their own. A small Buffer is usually a view into Node's shared 8 KB pool, and posting a
 * view to another thread copies its whole underlying buffer: 8 KB for a 300-byte answer.
 */
export function exactBytes(data: string | Uint8Array): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : new Uint8Array(data);
}

function bodyBuffer(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('the in-process transport carries string or byte bodies only');
}

function pathWithQuery(request: TransportRequest): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === null) query.append(name, '');
    else for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
  }
  const text = query.toString();
  return text ? `${request.path}?${text}` : request.path;
}
