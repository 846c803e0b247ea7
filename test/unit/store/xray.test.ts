import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { createDocumentClient, createMeteringClient } from '../../../lambdas/core/store/clients';
import {
  loadXRaySdk,
  traceClient,
  XRAY_MIDDLEWARE_NAME,
  XRAY_SDK_PACKAGE,
  type XRaySdk,
} from '../../../lambdas/core/store/xray';
import { esbuildOptions } from '../../../lib/bundling';
import { LocalRequestHandler, operationOf, type TransportRequest } from '../../../local-server/in-process-transport';

/** A transport that answers every DynamoDB call with an empty success, as the real service would for a miss. */
class EmptyAnswers extends LocalRequestHandler {
  readonly operations: string[] = [];
  async handle(request: TransportRequest) {
    this.operations.push(operationOf(request.headers) ?? '?');
    return {
      response: {
        statusCode: 200,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ123' },
        body: new TextEncoder().encode('{}'),
      },
    };
  }
}

interface RecordedSubsegment {
  name: string;
  namespace?: string;
  aws?: { operation?: string; table_name?: string; request_id?: string };
  http?: { response?: { status?: number } };
}

interface XRayRuntime {
  Segment: new (name: string) => { subsegments?: RecordedSubsegment[] };
  getNamespace(): { runPromise<T>(fn: () => Promise<T>): Promise<T> };
  setSegment(segment: unknown): void;
}

const getItem = () => new GetItemCommand({ TableName: 'accounts', Key: { pk: { S: 'KEY#x' } } });

/** Runs `fn` inside an X-Ray segment of its own (as the facade segment stands for one on Lambda). */
async function inSegment(fn: () => Promise<unknown>): Promise<RecordedSubsegment[]> {
  const xray = (await import(XRAY_SDK_PACKAGE)) as XRayRuntime & { default?: XRayRuntime };
  const sdk = xray.default ?? xray;
  const segment = new sdk.Segment('fxrates-test');
  await sdk.getNamespace().runPromise(async () => {
    sdk.setSegment(segment);
    await fn();
  });
  return segment.subsegments ?? [];
}

describe('X-Ray subsegments for DynamoDB calls', () => {
  it('records each call as a DynamoDB subsegment, the very first one included (it waits for the SDK to load)', async () => {
    const transport = new EmptyAnswers();
    const document = createDocumentClient('http://127.0.0.1:1', transport);
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    // The SDK arrives only after the first call was sent: that call waits for it rather than going untraced.
    const sdk = await loadXRaySdk();
    const slowLoad = () => new Promise<XRaySdk | undefined>((resolve) => setTimeout(() => resolve(sdk), 50));
    for (const client of [document, metering]) traceClient(client as DynamoDBClient, slowLoad);
    const subsegments = await inSegment(async () => {
      await metering.send(
        new UpdateItemCommand({
          TableName: 'accounts',
          Key: { pk: { S: 'USAGE#a#2026-09' } },
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': { N: '1' } },
        }),
      );
      await document.send(getItem());
    });
    expect(transport.operations).toEqual(['UpdateItem', 'GetItem']);
    expect(subsegments.map((s) => [s.name, s.namespace, s.aws?.operation, s.aws?.table_name])).toEqual([
      ['DynamoDB', 'aws', 'UpdateItem', 'accounts'],
      ['DynamoDB', 'aws', 'GetItem', 'accounts'],
    ]);
    expect(subsegments[0]?.http?.response?.status).toBe(200);
  });

  it("takes the place of the SDK's own middleware, once, in the build step around the retries", () => {
    const client = new DynamoDBClient({ region: 'local' });
    traceClient(client, async () => undefined);
    traceClient(client, async () => undefined);
    const entries = client.middlewareStack.identify().filter((entry) => entry.startsWith(XRAY_MIDDLEWARE_NAME));
    expect(entries).toEqual([`${XRAY_MIDDLEWARE_NAME} - build`]);
  });

  it('lets the calls through untraced when the SDK cannot be loaded', async () => {
    const transport = new EmptyAnswers();
    const client = new DynamoDBClient({
      region: 'local',
      endpoint: 'http://127.0.0.1:1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      requestHandler: transport,
    });
    traceClient(client, async () => undefined);
    await expect(client.send(getItem())).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(transport.operations).toEqual(['GetItem']);
  });

  it('loads the SDK once per process, with captureAWSv3Client', async () => {
    const sdk = (await loadXRaySdk()) as XRaySdk;
    expect(typeof sdk.captureAWSv3Client).toBe('function');
    expect(await loadXRaySdk()).toBe(sdk);
  });
});

describe('the X-Ray SDK and the bundles', () => {
  it("is in no bundle: the authorizer's only names the package, for a runtime require when tracing is on", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fxrates-xray-bundle-'));
    try {
      const file = join(dir, 'index.js');
      const result = await build({ ...esbuildOptions('authorizer', file), sourcemap: false, logLevel: 'silent' });
      const inputs = Object.keys(result.metafile?.inputs ?? {});
      expect(inputs.some((path) => path.includes('lambdas/core/store/xray.ts'))).toBe(true);
      expect(inputs.filter((path) => /aws-xray-sdk-core|cls-hooked|semver/.test(path))).toEqual([]);
      expect(readFileSync(file, 'utf8')).toContain(`"${XRAY_SDK_PACKAGE}"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
