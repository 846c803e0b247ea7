import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with the next requests: `pass` forwards them; `hold` keeps every request open without
 * forwarding it (a store that hangs: nothing reaches it); `lose-next-write` forwards the next UpdateItem, lets the
 * store apply it, and never answers (a write whose answer was lost), then passes again.
 */
export type ProxyMode = 'pass' | 'hold' | 'lose-next-write';

export interface StoreProxy {
  /** Where the SDK is pointed instead of the store. */
  endpoint: string;
  mode: ProxyMode;
  /** The DynamoDB operations that reached the proxy, in order. */
  readonly operations: string[];
  /** The same requests with their JSON bodies (DynamoDB's wire format), in order. */
  readonly requests: { operation: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(target: URL, req: IncomingMessage, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (res) => {
          readBody(res).then(
            (data) => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: data }),
            reject,
          );
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    },
  );
}

function parseBody(body: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * An HTTP proxy on a loopback port in front of a DynamoDB implementation, to test the SDK's own timeouts and
 * retries against a real store: the clients under test talk to it through the SDK's HTTP handler, unchanged.
 */
export async function startStoreProxy(target: string): Promise<StoreProxy> {
  const to = new URL(target);
  const held: ServerResponse[] = [];
  const proxy: StoreProxy = {
    endpoint: '',
    mode: 'pass',
    operations: [],
    requests: [],
    close: async () => undefined,
  };
  const server = createServer(async (req, res) => {
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    proxy.operations.push(operation);
    const body = await readBody(req);
    proxy.requests.push({ operation, body: parseBody(body) });
    if (proxy.mode === 'hold') {
      held.push(res);
      return;
    }
    const answer = await forward(to, req, body).catch(() => undefined);
    if (proxy.mode === 'lose-next-write' && operation === 'UpdateItem') {
      proxy.mode = 'pass';
      held.push(res);
      return;
    }
    if (!answer) {
      res.destroy();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
