import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  createDocumentClient,
  createMeteringClient,
  documentClient,
  meteringClient,
  SDK_LOGGER_MIDDLEWARE,
  STORE_CALL_LIMITS,
} from '../../../lambdas/core/store/clients';
import { restoreFastProperties } from '../../../lambdas/core/store/fast-properties';
import { isStoreUnavailable } from '../../../lambdas/core/store/store-errors';
import { XRAY_MIDDLEWARE_NAME } from '../../../lambdas/core/store/xray';
import { TRACING_ENV } from '../../../lambdas/core/tracing';
import { LocalRequestHandler } from '../../../local-server/in-process-transport';

/** V8's own answer to "does this object have fast properties?", compiled with its natives syntax enabled. */
function hasFastProperties(): (object: object) => boolean {
  setFlagsFromString('--allow-natives-syntax');
  return new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
}

describe('DynamoDB clients', () => {
  it('builds the metering client on the document client transport, with its middleware stack cached', () => {
    const document = createDocumentClient('http://127.0.0.1:1');
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    expect(metering).toBeInstanceOf(DynamoDBClient);
    expect(metering.config.requestHandler).toBe(document.config.requestHandler);
    expect(metering.config.cacheMiddleware).toBe(true);
    expect(document.config.cacheMiddleware).not.toBe(true);
  });

  it('points both clients at the emulator endpoint with throwaway credentials', async () => {
    const document = createDocumentClient('http://127.0.0.1:1');
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    for (const client of [document, metering]) {
      const endpoint = await client.config.endpoint?.();
      expect(`${endpoint?.protocol}//${endpoint?.hostname}:${endpoint?.port}`).toBe('http://127.0.0.1:1');
      expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'local' });
    }
  });

  it("leaves out the SDK's logger middleware, which filters every input and output for a logger nobody set", () => {
    const named = (client: { middlewareStack: { identify(): string[] } }) =>
      client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);
    expect(named(new DynamoDBClient({}))).toContain(SDK_LOGGER_MIDDLEWARE);
    const document = createDocumentClient('http://127.0.0.1:1');
    expect(named(document)).not.toContain(SDK_LOGGER_MIDDLEWARE);
    expect(named(createMeteringClient(document, 'http://127.0.0.1:1'))).not.toContain(SDK_LOGGER_MIDDLEWARE);
    expect(named(createDocumentClient(undefined))).not.toContain(SDK_LOGGER_MIDDLEWARE);
  });

  it('gives the config object V8 fast properties, which the SDK alone leaves in dictionary mode', async () => {
    const isFast = hasFastProperties();
    expect(isFast(new DynamoDBClient({}).config)).toBe(false);
    const document = createDocumentClient('http://127.0.0.1:1');
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    const onAws = createDocumentClient(undefined);
    for (const client of [document, metering, onAws]) expect(isFast(client.config)).toBe(true);
    // The object the middlewares hold is the one made fast, and it stays fast once calls have resolved its providers.
    await document.config.endpoint?.();
    await metering.config.credentials();
    expect(isFast(document.config)).toBe(true);
    expect(isFast(metering.config)).toBe(true);
  });

  it('makes a dictionary-mode object fast in place, keeping its identity, properties and prototype', () => {
    const isFast = hasFastProperties();
    const proto = { inherited: 1 };
    const object: Record<string, unknown> = Object.create(proto);
    for (let i = 0; i < 40; i++) Object.assign(object, { [`p${i}`]: i });
    delete object.p0;
    expect(isFast(object)).toBe(false);
    const before = Object.entries(object);
    restoreFastProperties(object);
    expect(isFast(object)).toBe(true);
    expect(Object.entries(object)).toEqual(before);
    expect(Object.getPrototypeOf(object)).toBe(proto);
    expect(object.inherited).toBe(1);
  });
});

/** The options the SDK built a client's NodeHttpHandler from, once a request has resolved them. */
function handlerSettings(client: { config: { requestHandler: unknown } }): Record<string, unknown> {
  const handler = client.config.requestHandler as { httpHandlerConfigs(): Record<string, unknown> };
  return handler.httpHandlerConfigs();
}

const stackNames = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);

/** A loopback HTTP server answering every request with `answer`, counting them. */
async function stubStore(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(String(req.headers['x-amz-target']));
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const getItem = () => new GetItemCommand({ TableName: 'accounts', Key: { pk: { S: 'KEY#x' } } });

describe("the functions' clients fail fast", () => {
  it("sets the limits once: timeouts well inside the authorizer's 5 s and two attempts", () => {
    expect(STORE_CALL_LIMITS).toEqual({ connectionTimeoutMs: 300, requestTimeoutMs: 1_000, maxAttempts: 2 });
    const worstCallMs = STORE_CALL_LIMITS.maxAttempts * STORE_CALL_LIMITS.requestTimeoutMs + 50;
    expect(worstCallMs).toBeLessThan(5_000 / 2);
  });

  it('gives the module-scope clients of a Lambda function the timeouts, bounded retries and one handler', async () => {
    const document = documentClient();
    const metering = meteringClient();
    expect(metering.config.requestHandler).toBe(document.config.requestHandler);
    for (const client of [document, metering]) {
      expect(await client.config.maxAttempts()).toBe(STORE_CALL_LIMITS.maxAttempts);
      const strategy = (await client.config.retryStrategy()) as { mode?: string };
      expect(strategy.mode).toBe('standard');
    }
    expect((document.config.requestHandler as object).constructor.name).toBe('NodeHttpHandler');
  });

  it('makes fewer attempts where asked, for the local admission write that made one itself', async () => {
    const document = createDocumentClient('http://127.0.0.1:1', undefined, { failFast: true });
    const fewer = createMeteringClient(document, 'http://127.0.0.1:1', { failFast: true, maxAttempts: 1 });
    expect(await fewer.config.maxAttempts()).toBe(1);
    const strategy = (await fewer.config.retryStrategy()) as { mode?: string };
    expect(strategy.mode).toBe('standard');
  });

  it('ends a call to a store that never answers after two attempts of one second each', async () => {
    const store = await stubStore(() => undefined);
    try {
      const client = createDocumentClient(store.endpoint, undefined, { failFast: true });
      const started = Date.now();
      const error = await client.send(getItem()).then(
        () => undefined,
        (e: unknown) => e,
      );
      const elapsed = Date.now() - started;
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(isStoreUnavailable(error)).toBe(true);
      expect(store.requests).toHaveLength(STORE_CALL_LIMITS.maxAttempts);
      expect(elapsed).toBeGreaterThanOrEqual(2 * STORE_CALL_LIMITS.requestTimeoutMs - 50);
      // Under a third attempt's timeout: the back-off (at most 50 ms) and a loaded machine's late timers fit below it.
      expect(elapsed).toBeLessThan((STORE_CALL_LIMITS.maxAttempts + 1) * STORE_CALL_LIMITS.requestTimeoutMs);
      expect(handlerSettings(client)).toMatchObject({
        connectionTimeout: STORE_CALL_LIMITS.connectionTimeoutMs,
        requestTimeout: STORE_CALL_LIMITS.requestTimeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: STORE_CALL_LIMITS.requestTimeoutMs,
      });
      // The metering client shares the handler, so the same timeouts hold for the admission write.
      expect(createMeteringClient(client, store.endpoint, { failFast: true }).config.requestHandler).toBe(
        client.config.requestHandler,
      );
    } finally {
      await store.close();
    }
  });

  it('tries a throttled call twice, then gives up with an error read as the store being unavailable', async () => {
    const store = await stubStore((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(
        JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
          message: 'The level of configured provisioned throughput for the table was exceeded.',
        }),
      );
    });
    try {
      const client = createDocumentClient(store.endpoint, undefined, { failFast: true });
      const started = Date.now();
      const error = await client.send(getItem()).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ProvisionedThroughputExceededException' });
      expect(isStoreUnavailable(error)).toBe(true);
      expect(store.requests).toHaveLength(2);
      // One throttling back-off of at most a second between the two attempts.
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await store.close();
    }
  });

  it("leaves the SDK defaults to the admin CLI and the backfill: no timeouts, the SDK's attempts", async () => {
    const store = await stubStore((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
    try {
      const client = createDocumentClient(store.endpoint);
      await client.send(getItem());
      expect(await client.config.maxAttempts()).toBeGreaterThan(STORE_CALL_LIMITS.maxAttempts);
      const settings = handlerSettings(client);
      expect(settings.requestTimeout).toBeUndefined();
      expect(settings.connectionTimeout).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("keeps a replaced transport (the local server's) and bounds only the attempts", async () => {
    class Failing extends LocalRequestHandler {
      calls = 0;
      async handle(): Promise<never> {
        this.calls++;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      }
    }
    const transport = new Failing();
    const client = createDocumentClient('http://127.0.0.1:1', transport, { failFast: true });
    expect(client.config.requestHandler).toBe(transport);
    const error = await client.send(getItem()).catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(transport.calls).toBe(STORE_CALL_LIMITS.maxAttempts);
  });
});

describe('X-Ray instrumentation of the clients', () => {
  const saved = process.env[TRACING_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[TRACING_ENV];
    else process.env[TRACING_ENV] = saved;
  });

  it('is on every client when FXRATES_TRACING is true, and on none otherwise', () => {
    delete process.env[TRACING_ENV];
    const plain = createDocumentClient('http://127.0.0.1:1');
    expect(stackNames(plain)).not.toContain(XRAY_MIDDLEWARE_NAME);
    expect(stackNames(createMeteringClient(plain, 'http://127.0.0.1:1'))).not.toContain(XRAY_MIDDLEWARE_NAME);
    process.env[TRACING_ENV] = 'true';
    const traced = createDocumentClient('http://127.0.0.1:1');
    expect(stackNames(traced)).toContain(XRAY_MIDDLEWARE_NAME);
    expect(stackNames(createMeteringClient(traced, 'http://127.0.0.1:1'))).toContain(XRAY_MIDDLEWARE_NAME);
  });
});
