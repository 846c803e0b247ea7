import { setFlagsFromString } from 'node:v8';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, createMeteringClient, SDK_LOGGER_MIDDLEWARE } from '../../../lambdas/core/store/clients';
import { restoreFastProperties } from '../../../lambdas/core/store/fast-properties';

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
