import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINT_FILE, endpointAnswers, readEndpointFile } from '../../../admin-cli/target';

describe('local store discovery', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-admin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the endpoint the local server published', () => {
    writeFileSync(join(dir, ENDPOINT_FILE), JSON.stringify({ endpoint: 'http://127.0.0.1:8123' }));
    expect(readEndpointFile(dir)).toBe('http://127.0.0.1:8123');
  });

  it('treats a missing, truncated or foreign endpoint file as no endpoint', () => {
    expect(readEndpointFile(dir)).toBeUndefined();
    writeFileSync(join(dir, ENDPOINT_FILE), '{"endpoint": "http://127.0.0.1:81');
    expect(readEndpointFile(dir)).toBeUndefined();
    writeFileSync(join(dir, ENDPOINT_FILE), JSON.stringify({ endpoint: 'file:///etc/passwd' }));
    expect(readEndpointFile(dir)).toBeUndefined();
    writeFileSync(join(dir, ENDPOINT_FILE), JSON.stringify({ url: 'http://127.0.0.1:8123' }));
    expect(readEndpointFile(dir)).toBeUndefined();
  });
});

describe('endpoint probe', () => {
  const servers: Server[] = [];
  const listen = async (handler: Parameters<typeof createServer>[1]): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts any HTTP answer, an error status included, as a live endpoint', async () => {
    const endpoint = await listen((_req, res) => {
      res.statusCode = 400;
      res.end('{"__type":"MissingAuthenticationToken"}');
    });
    expect(await endpointAnswers(endpoint, 1000)).toBe(true);
  });

  it('reports a port nobody listens on as dead', async () => {
    const endpoint = await listen((_req, res) => res.end());
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    expect(await endpointAnswers(endpoint, 1000)).toBe(false);
  });

  it('gives up on an endpoint that accepts but never answers within the timeout', async () => {
    const endpoint = await listen(() => undefined);
    const started = Date.now();
    expect(await endpointAnswers(endpoint, 200)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
