import { createServer } from 'node:http';
import { PassThrough } from 'node:stream';
import { attachLocalGateway, createLocalGateway, MAX_REQUEST_HEADERS } from '../../../local-server/gateway';

/** What the local gateway writes onto a socket Node no longer parses: one response, then the end. */
function answeredOn(write: (socket: PassThrough) => void): { status: number; head: string; body: unknown } {
  const socket = new PassThrough();
  write(socket);
  const text = String(socket.read() ?? '');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  expect(socket.writableEnded).toBe(true);
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) };
}

describe('the local gateway on what Node does not hand to the request listener', () => {
  const gateway = createLocalGateway({
    handlers: {} as never,
    authorizer: async () => {
      throw new Error('no request is authorized in these tests');
    },
    requestId: () => 'req-protocol',
  });
  const parserError = (code: string, rawPacket?: string) =>
    Object.assign(new Error(code), { code, ...(rawPacket === undefined ? {} : { rawPacket: Buffer.from(rawPacket) }) });

  it.each([
    ['an unknown method', 'HPE_INVALID_METHOD', 'FOO /v1/quota HTTP/1.1\r\n', 404, 'not-found', 'No such endpoint.'],
    ['an unknown method cut short', 'HPE_INVALID_METHOD', 'FO', 404, 'not-found', 'No such endpoint.'],
    ['an unknown method, bytes unknown', 'HPE_INVALID_METHOD', undefined, 404, 'not-found', 'No such endpoint.'],
    ['a request line without a target', 'HPE_INVALID_METHOD', 'GET\r\n\r\n', 400, 'invalid-parameter', undefined],
    ['binary bytes', 'HPE_INVALID_METHOD', '\x16\x03\x01', 400, 'invalid-parameter', undefined],
    ['oversized headers', 'HPE_HEADER_OVERFLOW', 'GET /', 400, 'invalid-parameter', 'The request is too large.'],
    ['a request not sent in time', 'ERR_HTTP_REQUEST_TIMEOUT', undefined, 408, 'invalid-parameter', undefined],
    ['an HTTP/2 preface', 'HPE_PAUSED_H2_UPGRADE', 'PRI * HTTP/2.0\r\n', 400, 'invalid-parameter', undefined],
  ])('answers %s (%s) in the envelope, then closes', (_what, code, raw, status, errorCode, message) => {
    const reply = answeredOn((socket) => gateway.clientError(parserError(code, raw), socket));
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ success: false, error: { code: errorCode, ...(message ? { message } : {}) } });
    expect(reply.head).toContain('\r\nX-Request-Id: req-protocol');
    expect(reply.head).toContain('\r\nConnection: close');
  });

  it('answers CONNECT with 404 not-found in the envelope, and survives a reset socket', () => {
    const reply = answeredOn((socket) => gateway.connect({} as never, socket));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, error: { code: 'not-found', message: 'No such endpoint.' } });
    expect(reply.head).toContain('\r\nX-Request-Id: req-protocol');
    const reset = new PassThrough();
    gateway.connect({} as never, reset);
    expect(() => reset.emit('error', Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).not.toThrow();
  });

  it('registers every listener and sets the header-count limit one above the largest request it serves', () => {
    const server = attachLocalGateway(createServer(), gateway);
    expect(server.maxHeadersCount).toBe(MAX_REQUEST_HEADERS + 1);
    expect((server as unknown as { requireHostHeader: boolean }).requireHostHeader).toBe(false);
    for (const event of ['request', 'clientError', 'connect', 'checkExpectation']) {
      expect([event, server.listenerCount(event)]).toEqual([event, 1]);
    }
    // Without an 'upgrade' listener Node serves an upgrade request as a plain one.
    expect(server.listenerCount('upgrade')).toBe(0);
  });
});
