/** The local gateway on a Node HTTP server, answering even what Node handles before a listener in the envelope. */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { TOO_MANY_HEADERS_RESPONSE } from '../lambdas/core/http/gateway-responses';
import type { StaticPage } from './gateway';
import {
  type GatewayReply,
  type GatewayRequest,
  renderDefinition,
  renderGateway,
  requestTarget,
} from './gateway-events';
import type { createStaticEncoder, StaticReply } from './static-encoding';

/** Node's default count; a request with more is refused rather than read without the fields past it. */
export const MAX_REQUEST_HEADERS = 2000;

export interface GatewayCore {
  newRequestId: () => string;
  onError: (error: unknown, requestId: string) => void;
  /** What is served at `path` for GET and HEAD, if anything: a file, or the `/docs` redirect. */
  pageAt(path: string): StaticPage | undefined;
  /** The largest body read at `path`; undefined where no body is read (every public route is GET). */
  bodyLimitAt(path: string): number | undefined;
  route(request: GatewayRequest, url: URL | undefined): Promise<GatewayReply>;
  staticFiles: ReturnType<typeof createStaticEncoder>;
}

/** The body as text, or undefined when it is larger than `limit` bytes (the rest is then not read). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        req.pause();
        resolve(undefined);
      }
    });
    // The first settlement wins: an end or error after the limit was passed changes nothing.
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

/** What the listener refuses before routing: what Node's parser let through but the gateway cannot answer. */
function refusal(req: IncomingMessage, newRequestId: () => string): GatewayReply | undefined {
  // Node keeps the first maxHeadersCount fields and drops the rest unseen; attachLocalGateway sets that count
  // one above the limit, so a request that reaches it has lost fields (an X-API-Key among them, perhaps).
  if (req.rawHeaders.length / 2 > MAX_REQUEST_HEADERS) {
    return renderDefinition(TOO_MANY_HEADERS_RESPONSE, newRequestId());
  }
  // HTTP/1.1 requires Host (RFC 9112 3.2); Node's own check answers without the envelope, so the gateway checks.
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    const reply = renderGateway('BAD_REQUEST_PARAMETERS', newRequestId());
    return { ...reply, headers: { ...reply.headers, Connection: 'close' } };
  }
  return undefined;
}

export function httpSide(core: GatewayCore) {
  return {
    listener: (req: IncomingMessage, res: ServerResponse) => listener(core, req, res),
    clientError: (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) =>
      clientError(core, error, socket),
    connect: (_req: IncomingMessage, socket: Duplex) => connect(core, socket),
    checkExpectation: (req: IncomingMessage, res: ServerResponse) => checkExpectation(core, req, res),
  };
}

/** A larger body than the path takes is refused unread; oversized headers are refused by Node (see clientError). */
async function listener(core: GatewayCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? '/';
  const method = req.method ?? 'GET';
  const refused = refusal(req, core.newRequestId);
  const url = requestTarget(raw);
  const path = url?.pathname;
  const page = refused || path === undefined || (method !== 'GET' && method !== 'HEAD') ? undefined : core.pageAt(path);
  if (page && !('Location' in page.headers)) {
    await serveFile(core, req, res, page);
    return;
  }
  const limit = refused || path === undefined ? undefined : core.bodyLimitAt(path);
  const body = limit === undefined ? '' : await readBody(req, limit);
  const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
  const request = { method, url: raw, headers: req.headers, sourceIp, ...(body === undefined ? {} : { body }) };
  const reply =
    refused ??
    (await core.route(request, url).catch((error: unknown) => {
      const requestId = core.newRequestId();
      core.onError(error, requestId);
      return renderGateway('DEFAULT_5XX', requestId);
    }));
  res.writeHead(reply.statusCode, reply.headers);
  res.end(reply.statusCode === 304 ? undefined : reply.body);
  req.resume();
}

/** 406 when the client refuses every coding, identity included. */
async function serveFile(core: GatewayCore, req: IncomingMessage, res: ServerResponse, page: StaticPage) {
  const requestId = core.newRequestId();
  let reply: StaticReply | GatewayReply | undefined;
  try {
    reply = await core.staticFiles.reply(page, {
      method: req.method ?? 'GET',
      acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'],
    });
    reply ??= { ...renderGateway('DEFAULT_4XX', requestId), statusCode: 406 };
  } catch (error) {
    core.onError(error, requestId);
    reply = renderGateway('DEFAULT_5XX', requestId);
  }
  res.writeHead(reply.statusCode, { ...reply.headers, 'X-Request-Id': requestId });
  res.end(reply.statusCode === 304 ? undefined : reply.body);
  req.resume();
}

/** A gateway reply written straight onto a socket Node no longer reads HTTP from; the connection then closes. */
function answerOnSocket(socket: Duplex, reply: GatewayReply): void {
  const headers = { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)), Connection: 'close' };
  const head = [
    `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${reply.body}`);
}

/** An unknown method such as `FOO`, rather than garbage or a request line without a target (`GET`). */
function isMethodToken(packet: Buffer | undefined): boolean {
  if (packet === undefined) return true;
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+( |$)/.test(packet.subarray(0, 64).toString('latin1'));
}

/** Answered as API Gateway answers what it refuses: an unknown method 404, too-large headers, 408, else 400. */
function clientError(core: GatewayCore, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = core.newRequestId();
  let reply: GatewayReply;
  if (error.code === 'HPE_INVALID_METHOD' && isMethodToken(error.rawPacket)) {
    reply = renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    reply = renderGateway('REQUEST_TOO_LARGE', requestId);
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // DEFAULT_4XX keeps the status of the failure, as on API Gateway.
    reply = { ...renderGateway('DEFAULT_4XX', requestId), statusCode: 408 };
  } else {
    reply = renderGateway('BAD_REQUEST_PARAMETERS', requestId);
  }
  answerOnSocket(socket, reply);
}

/** API Gateway routes no CONNECT: an unknown method, 404 not-found (Node alone would close without a byte). */
function connect(core: GatewayCore, socket: Duplex): void {
  // Node has removed its own listeners from the socket: a reset by the client must not become an uncaught error.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  answerOnSocket(socket, renderGateway('MISSING_AUTHENTICATION_TOKEN', core.newRequestId()));
}

/** An `Expect` other than 100-continue: Node would answer a bare 417; the gateway answers it in the envelope. */
function checkExpectation(core: GatewayCore, req: IncomingMessage, res: ServerResponse): void {
  const reply = { ...renderGateway('DEFAULT_4XX', core.newRequestId()), statusCode: 417 };
  res.writeHead(reply.statusCode, reply.headers);
  res.end(reply.body);
  req.resume();
}
