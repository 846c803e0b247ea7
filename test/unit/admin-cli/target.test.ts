import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENDPOINT_FILE,
  endpointAnswers,
  noServerMessage,
  openStore,
  probeStore,
  readEndpointFile,
  StoreUnavailableError,
} from '../../../admin-cli/target';
import type { ServerRecord } from '../../../local-server/running-servers';

const server = (dataDir: string, apiUrl?: string): ServerRecord => ({
  pid: 4242,
  hostname: 'here',
  startedAt: '2026-03-01T09:00:00Z',
  dataDir,
  ...(apiUrl ? { apiUrl } : {}),
});

describe('the message when no server runs with the data directory', () => {
  it('names the servers that do run, with their API, and both ways on', () => {
    expect(
      noServerMessage('/abs/.data', [server('/abs/other', 'http://127.0.0.1:3000/v1/'), server('/abs/third')], true),
    ).toBe(
      'No fxrates server is running with the data directory /abs/.data. Servers running now: /abs/other (http://127.0.0.1:3000/v1/), /abs/third (process 4242, starting). Point the CLI at one with --data-dir DIR or FXRATES_DATA_DIR, or pass --stopped to use the store in /abs/.data while no server runs.',
    );
  });

  it('says when no server runs at all, and offers --stopped only where a store exists', () => {
    expect(noServerMessage('/abs/.data', [], false)).toBe(
      'No fxrates server is running with the data directory /abs/.data, which holds no store. No other fxrates server is running either. Start one with npm start (FXRATES_DATA_DIR=/abs/.data), or point the CLI at another directory with --data-dir DIR or FXRATES_DATA_DIR.',
    );
    expect(noServerMessage('/abs/.data', [], true)).toContain(
      'or pass --stopped to use the store in /abs/.data while no server runs.',
    );
  });
});

describe('opening a local store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-admin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = async (promise: Promise<unknown>): Promise<StoreUnavailableError> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof StoreUnavailableError) return error;
      throw error;
    }
    throw new Error('expected the store to be refused');
  };

  it('refuses, creating nothing, when no server runs with the data directory', async () => {
    const dataDir = join(dir, 'never-made');
    const error = await refusal(openStore({ kind: 'local', dataDir, stopped: false }, { probeTimeoutMs: 200 }));
    expect(error.code).toBe('no-server');
    expect(error.message).toMatch(/^No fxrates server is running with the data directory .*never-made, which holds/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses --stopped on a directory without a store, creating nothing', async () => {
    const dataDir = join(dir, 'empty');
    mkdirSync(dataDir);
    const error = await refusal(openStore({ kind: 'local', dataDir, stopped: true }));
    expect(error.code).toBe('no-store');
    expect(error.message).toBe(
      `The data directory ${dataDir} holds no fxrates store (no dynalite in it); nothing was created. Check --data-dir or FXRATES_DATA_DIR.`,
    );
    expect(existsSync(join(dataDir, 'dynalite'))).toBe(false);
  });

  it('does not take an endpoint file whose port answers with something other than a store', async () => {
    const foreign = createServer((_req, res) => {
      res.statusCode = 200;
      res.end('<html>not a store</html>');
    });
    await new Promise<void>((done) => foreign.listen(0, '127.0.0.1', done));
    try {
      const endpoint = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      writeFileSync(join(dir, ENDPOINT_FILE), JSON.stringify({ endpoint }));
      expect(await probeStore(endpoint, 1000)).toBe('none');
      const error = await refusal(openStore({ kind: 'local', dataDir: dir, stopped: false }, { probeTimeoutMs: 500 }));
      expect(error.code).toBe('no-server');
    } finally {
      foreign.closeAllConnections();
      await new Promise((done) => foreign.close(done));
    }
  });
});

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
