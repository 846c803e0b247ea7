import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { exactBytes, operationOf, type TransportRequest } from '../../../local-server/in-process-transport';
import { RpcClient, serveRpc } from '../../../local-server/port-rpc';
import { DYNAMODB_METHOD, ThreadTransport } from '../../../local-server/thread-transport';

interface Arrived {
  text: string;
  byteLength: number;
  bufferByteLength: number;
}

describe('the transport to the store thread', () => {
  const open: MessagePort[] = [];
  afterEach(() => {
    for (const port of open.splice(0)) port.close();
  });

  /** A transport whose store records how each request body arrived on the other side of a real port. */
  function transportTo(arrived: Arrived[]): ThreadTransport {
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    serveRpc(port2, {
      [DYNAMODB_METHOD]: (request: TransportRequest) => {
        const body = request.body as Uint8Array;
        arrived.push({
          text: new TextDecoder().decode(body),
          byteLength: body.byteLength,
          bufferByteLength: body.buffer.byteLength,
        });
        return { statusCode: 200, headers: {}, body: new Uint8Array() };
      },
    });
    return new ThreadTransport(new RpcClient(port1));
  }

  it("sends a body that is a view into Node's buffer pool with its own bytes only", async () => {
    const arrived: Arrived[] = [];
    const transport = transportTo(arrived);
    const text = '{"TableName":"accounts","Key":{"pk":{"S":"USAGE#a#2026-11"}}}';
    const pooled = Buffer.from(text);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);

    const answer = await transport.handle({ method: 'POST', path: '/', headers: {}, body: pooled });
    expect(answer.response.statusCode).toBe(200);
    expect(arrived).toEqual([{ text, byteLength: pooled.byteLength, bufferByteLength: pooled.byteLength }]);
  });

  it('keeps the bytes of a body that is a view at an offset of a larger buffer', async () => {
    const arrived: Arrived[] = [];
    const transport = transportTo(arrived);
    const whole = new TextEncoder().encode('ignored{"Limit":1}ignored');
    await transport.handle({ method: 'POST', path: '/', headers: {}, body: whole.subarray(7, 18) });
    expect(arrived).toEqual([{ text: '{"Limit":1}', byteLength: 11, bufferByteLength: 11 }]);
  });
});

describe('exactBytes', () => {
  it('encodes a string into a buffer of its own', () => {
    const bytes = exactBytes('grüße');
    expect(new TextDecoder().decode(bytes)).toBe('grüße');
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('returns bytes that already fill their buffer as they are, and copies a view', () => {
    const own = new Uint8Array([1, 2, 3]);
    expect(exactBytes(own)).toBe(own);
    const view = Buffer.from([9, 1, 2, 3, 9]).subarray(1, 4);
    const copy = exactBytes(view);
    expect(copy).not.toBe(view);
    expect([...copy]).toEqual([1, 2, 3]);
    expect(copy.buffer.byteLength).toBe(3);
  });
});

describe('operationOf', () => {
  it('names the operation from the target header in either case, and nothing without one', () => {
    expect(operationOf({ 'x-amz-target': 'DynamoDB_20120810.UpdateItem' })).toBe('UpdateItem');
    expect(operationOf({ 'X-Amz-Target': 'DynamoDB_20120810.GetItem' })).toBe('GetItem');
    expect(operationOf({ 'content-type': 'application/x-amz-json-1.0' })).toBeUndefined();
  });
});
