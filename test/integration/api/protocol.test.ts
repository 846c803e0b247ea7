import { connect } from 'node:net';
import { MAX_REQUEST_HEADERS } from '../../../local-server/gateway';
import { useTestApi } from '../../support/api-service';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

/**
 * Writes `request` as it is onto a new connection to the local server and reads one response. With `untilClose`,
 * waits for the server to close the connection (and fails if it does not within the timeout); otherwise returns as
 * soon as the whole response has arrived.
 */
function rawRequest(port: number, request: string | Buffer, untilClose = false): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    let ended = false;
    const timer = setTimeout(() => settle(new Error(`no ${untilClose ? 'close' : 'complete response'} in 5 s`)), 5_000);
    const parse = (): Omit<RawReply, 'closed'> | undefined => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const rest = bytes.subarray(end + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        const body = dechunk(rest);
        return body === undefined ? undefined : { status, headers, body };
      }
      if (headers['content-length'] === undefined)
        return ended ? { status, headers, body: rest.toString('utf8') } : undefined;
      const length = Number(headers['content-length']);
      if (rest.length < length) return undefined;
      return { status, headers, body: rest.subarray(0, length).toString('utf8') };
    };
    const settle = (outcome: Error | RawReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const reply = parse();
      if (reply && !untilClose) settle({ ...reply, closed: false });
    });
    socket.on('end', () => {
      ended = true;
      const reply = parse();
      settle(
        reply ? { ...reply, closed: true } : new Error(`closed without a complete response: ${chunks.length} chunks`),
      );
    });
    socket.on('error', (error) => settle(error));
  });
}

/** A chunked body decoded, or undefined while its last chunk has not arrived. */
function dechunk(bytes: Buffer): string | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts).toString('utf8');
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The gateway's envelope: status, code and message, JSON, no-store, a request id. */
function expectEnvelope(reply: RawReply, status: number, code: string, message?: string): void {
  const body = JSON.parse(reply.body) as { success: boolean; error?: { code: string; message: string } };
  expect({ status: reply.status, success: body.success, code: body.error?.code }).toEqual({
    status,
    success: false,
    code,
  });
  if (message !== undefined) expect(body.error?.message).toBe(message);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.headers['x-request-id']).toMatch(UUID);
}

/** `count` header fields in all: Host, Connection, the key (last) when given, and short filler fields before it. */
function manyHeaders(count: number, key?: string): string {
  const fixed = ['Host: localhost', 'Connection: close'];
  const last = key === undefined ? [] : [`X-API-Key: ${key}`];
  const filler = Array.from({ length: count - fixed.length - last.length }, () => 'a:1');
  return `GET /v1/quota HTTP/1.1\r\n${[...fixed, ...filler, ...last].join('\r\n')}\r\n\r\n`;
}

describe('every request that reaches the local server is answered in the envelope, with a request id', () => {
  const ctx = useTestApi();
  const send = (request: string | Buffer, untilClose = false) => rawRequest(ctx.api.service.port, request, untilClose);

  describe('methods API Gateway does not route', () => {
    it('answers CONNECT /v1/quota with 404 not-found and closes the connection', async () => {
      const reply = await send(`CONNECT /v1/quota HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${ctx.key}\r\n\r\n`, true);
      expectEnvelope(reply, 404, 'not-found', 'No such endpoint.');
      expect(reply.headers.connection).toBe('close');
      expect(reply.closed).toBe(true);
    });

    it('answers CONNECT to an authority, as a proxy is asked, with 404 not-found', async () => {
      const reply = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', true);
      expectEnvelope(reply, 404, 'not-found');
      expect(reply.closed).toBe(true);
    });

    it.each(['FOO', 'get', 'BREW'])('answers the unknown method %s with 404 not-found', async (method) => {
      const reply = await send(
        `${method} /v1/quota HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${ctx.key}\r\n\r\n`,
        true,
      );
      expectEnvelope(reply, 404, 'not-found', 'No such endpoint.');
      expect(reply.closed).toBe(true);
    });

    it('answers a method Node knows but no route has (PROPFIND) with 404 not-found too', async () => {
      const reply = await send(`PROPFIND /v1/quota HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expectEnvelope(reply, 404, 'not-found');
    });
  });

  describe('what Node cannot parse', () => {
    it.each([
      ['a request line without a target', 'GET\r\n\r\n'],
      ['an unknown HTTP version', 'GET /v1/quota HTTP/9.9\r\nHost: localhost\r\n\r\n'],
      ['a malformed method token', 'G@T /v1/quota HTTP/1.1\r\nHost: localhost\r\n\r\n'],
      ['a space in the target', 'GET /v1/q uota HTTP/1.1\r\nHost: localhost\r\n\r\n'],
      ['a malformed header name', 'GET /v1/quota HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\n\r\n'],
      ['a TLS handshake on the plain port', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1])],
    ])('answers %s with 400 invalid-parameter', async (_what, request) => {
      const reply = await send(request, true);
      expectEnvelope(reply, 400, 'invalid-parameter', 'A request parameter is malformed.');
      expect(reply.closed).toBe(true);
    });

    it('answers headers over the size limit with 400 "The request is too large."', async () => {
      const reply = await send(
        `GET /v1/quota HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        true,
      );
      expectEnvelope(reply, 400, 'invalid-parameter', 'The request is too large.');
    });

    it('answers an HTTP/1.1 request without Host with 400 in the envelope; HTTP/1.0 needs none', async () => {
      const without = await send(`GET /v1/quota HTTP/1.1\r\nX-API-Key: ${ctx.key}\r\n\r\n`, true);
      expectEnvelope(without, 400, 'invalid-parameter');
      expect(without.closed).toBe(true);
      const old = await send(`GET /v1/quota HTTP/1.0\r\nX-API-Key: ${ctx.key}\r\n\r\n`, true);
      expect(old.status).toBe(200);
      expect(JSON.parse(old.body).success).toBe(true);
    });

    it('answers an expectation it cannot meet with 417 in the envelope', async () => {
      const reply = await send(
        `GET /v1/quota HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nX-API-Key: ${ctx.key}\r\n\r\n`,
      );
      expectEnvelope(reply, 417, 'invalid-parameter', 'The request was refused.');
    });
  });

  describe('protocol upgrades', () => {
    const upgrade = (key?: string) =>
      'GET /v1/quota HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
      `${key === undefined ? '' : `X-API-Key: ${key}\r\n`}\r\n`;

    it('answers a websocket upgrade request as a plain request, without switching protocols', async () => {
      const reply = await send(upgrade(ctx.key));
      expect(reply.status).toBe(200);
      expect(reply.headers.upgrade).toBeUndefined();
      expect(JSON.parse(reply.body)).toMatchObject({ success: true, data: expect.any(Object) });
      expect(reply.headers['x-request-id']).toMatch(UUID);
    });

    it('refuses a websocket upgrade request without a key like any request without one', async () => {
      expectEnvelope(await send(upgrade()), 401, 'missing-api-key', 'The X-API-Key header is missing.');
    });
  });

  describe('the header-count limit', () => {
    it('refuses 2,100 header fields with the key last as too many headers, not as a missing key', async () => {
      const reply = await send(manyHeaders(2_100, ctx.key));
      expectEnvelope(reply, 400, 'invalid-parameter', 'The request has too many headers.');
    });

    it('refuses one field over the limit, and serves a request with exactly the limit', async () => {
      expect(MAX_REQUEST_HEADERS).toBe(2_000);
      const over = await send(manyHeaders(MAX_REQUEST_HEADERS + 1, ctx.key));
      expectEnvelope(over, 400, 'invalid-parameter', 'The request has too many headers.');
      const at = await send(manyHeaders(MAX_REQUEST_HEADERS, ctx.key));
      expect(at.status).toBe(200);
      expect(JSON.parse(at.body).success).toBe(true);
    });

    it('serves 100 header fields with a valid key', async () => {
      const reply = await send(manyHeaders(100, ctx.key));
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ success: true, data: expect.any(Object) });
      expect(reply.headers['x-request-id']).toMatch(UUID);
    });

    it('still says the key is missing when it is, among many fields', async () => {
      expectEnvelope(await send(manyHeaders(1_500)), 401, 'missing-api-key');
    });
  });

  describe('currency codes echoed in messages', () => {
    it.each([
      ["'ÉUR'", 'ÉUR', "Currency 'ÉUR' is not supported."],
      ["'円'", '円', "Currency '円' is not supported."],
      ['a code with a right-to-left override (U+202E)', 'U\u202eSD', "Currency 'U\\u{202E}SD' is not supported."],
      ['a code with a zero-width space', 'E\u200bUR', "Currency 'E\\u{200B}UR' is not supported."],
    ])('echoes %s as sent, safely escaped', async (_what, code, message) => {
      const r = await ctx.api.get(`rates/pair/${encodeURIComponent(code)}/USD`, ctx.key);
      const body = r.json();
      expect({
        status: r.status,
        code: body.error?.code,
        param: body.error?.param,
        message: body.error?.message,
      }).toEqual({ status: 422, code: 'unsupported-currency', param: 'from', message });
      expect(r.headers.get('x-request-id')).toBeTruthy();
    });
  });
});
