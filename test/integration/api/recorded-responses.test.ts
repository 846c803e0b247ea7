/**
 * A guard for refactors that must not change what a client sees: the status, headers and body, byte for byte, of a
 * fixed set of requests to every public route, and the OpenAPI document, compared with what was recorded. The test
 * clock and fresh keys make every byte repeatable except the Date header (dropped) and the request id (a
 * placeholder); the keys and account ids, random per run, are placeholders too.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite, OPENAPI_FILE } from '../../../api-docs/site';
import type { PlanId } from '../../../lambdas/core/domain/plans';
import { startTestApi, type TestApi } from '../../support/api-service';

// Re-record after an intended change: RECORD=1 npx jest test/integration/api/recorded-responses.test.ts
const RECORD = process.env.RECORD === '1';
const GOLDEN_FILE = join(import.meta.dirname, 'recorded-responses.json');

/** The keys requests use: each is its own account, so one key's usage never shifts another's quota or headers. */
const KEYS = {
  business: { plan: 'business' },
  pro: { plan: 'pro', overrides: {} },
  free: { plan: 'free', overrides: {} },
  limited: { plan: 'free', overrides: { perMinute: 1 } },
  sources: { plan: 'business' },
} as const satisfies Record<string, { plan: PlanId; overrides?: object }>;
type KeyName = keyof typeof KEYS;

interface Call {
  name: string;
  method?: string;
  /** From the server's origin (the business helper's paths: from /v1/ unless they start with a slash). */
  path: string;
  /** A key by name, or a literal X-API-Key value; absent: none sent. */
  key?: KeyName | { literal: string };
  headers?: Record<string, string>;
  /** Sends If-None-Match with the ETag an earlier call of this name got. */
  ifNoneMatchOf?: string;
}

const business = (name: string, path: string, extra: Omit<Call, 'name' | 'path'> = {}): Call => ({
  name,
  path: path.startsWith('/') ? path : `/v1/${path}`,
  key: 'business',
  ...extra,
});

const CALLS: readonly Call[] = [
  business('latest, default base', 'rates/latest'),
  business('latest, base USD', 'rates/latest?base=USD'),
  business('latest, lower-case base with expand=sources', 'rates/latest?base=jpy&expand=sources'),
  business('latest, 304 on a matching If-None-Match', 'rates/latest', { ifNoneMatchOf: 'latest, default base' }),
  business('latest, 200 on a stale If-None-Match', 'rates/latest', { headers: { 'If-None-Match': '"stale"' } }),
  business('latest, 400 on a repeated base', 'rates/latest?base=USD&base=GBP'),
  business('latest, 400 on an unknown expand', 'rates/latest?expand=everything'),
  business('latest, 400 on a key in the URL', 'rates/latest?api_key=whatever'),
  business('latest, 422 on an unsupported base', 'rates/latest?base=XAU'),
  { name: 'latest, 401 without a key', path: '/v1/rates/latest' },
  { name: 'latest, 401 with an empty key', path: '/v1/rates/latest', key: { literal: '' } },
  { name: 'latest, 401 with an unknown key', path: '/v1/rates/latest', key: { literal: 'not-a-key' } },

  business('pair', 'rates/pair/EUR/USD'),
  business('pair, lower-case codes and an amount', 'rates/pair/usd/gbp?amount=100'),
  business('pair, expand=sources', 'rates/pair/USD/AED?expand=sources'),
  business('pair, 304 on a matching If-None-Match', 'rates/pair/EUR/USD', { ifNoneMatchOf: 'pair' }),
  business('pair, 400 on a malformed amount', 'rates/pair/EUR/USD?amount=12abc'),
  business('pair, 400 on an overlong code', `rates/pair/${'A'.repeat(100)}/EUR`),
  business('pair, 422 on an unsupported target', 'rates/pair/EUR/XUA'),
  business('pair, 404 without a target', 'rates/pair/USD'),

  business('history, first ECB day', 'rates/history/EUR/USD/1999-01-04'),
  business('history, cross rate', 'rates/history/USD/JPY/2025-06-16'),
  business('history, withdrawn currency', 'rates/history/CYP/EUR/1999-01-04'),
  business('history, currency-api day with expand=sources', 'rates/history/USD/AED/2026-09-28?expand=sources'),
  business('history, fallback from a Saturday', 'rates/history/USD/CHF/2025-04-12?fallback=previous'),
  business('history, fallback from today, not yet final', 'rates/history/EUR/USD/2026-09-30?fallback=previous'),
  business('history, 304 on a matching If-None-Match', 'rates/history/EUR/USD/1999-01-04', {
    ifNoneMatchOf: 'history, first ECB day',
  }),
  business('history, 404 on a Saturday without fallback', 'rates/history/USD/CHF/2025-04-12'),
  business('history, 404 before the first day', 'rates/history/USD/EUR/1998-12-31'),
  business('history, 400 on an impossible date', 'rates/history/USD/EUR/2025-13-01'),
  business('history, 400 on an unknown fallback', 'rates/history/USD/EUR/2025-06-16?fallback=next'),
  business('history, 422 on an unsupported currency', 'rates/history/UYW/EUR/2025-06-16'),
  { name: 'history, 403 beyond the Free window', path: '/v1/rates/history/USD/EUR/2025-06-16', key: 'free' },

  business('currencies', 'currencies'),
  business('currencies, locale=de', 'currencies?locale=de'),
  business('currencies, 422 on an unsupported locale', 'currencies?locale=fr'),

  business('enriched, locale=de', 'rates/enriched/usd/gbp?locale=de'),
  business('enriched', 'rates/enriched/JPY/CHF'),
  business('enriched, expand=sources', 'rates/enriched/AED/EUR?expand=sources'),
  business('enriched, 304 on a matching If-None-Match', 'rates/enriched/JPY/CHF', { ifNoneMatchOf: 'enriched' }),
  business('enriched, 422 on an unsupported currency', 'rates/enriched/EUR/BTC'),

  business('convert', 'rates/convert/USD?to=EUR,GBP,JPY'),
  business('convert, an amount', 'rates/convert/GBP?to=JPY,ISK,KWD&amount=250.5'),
  business('convert, 304 on a matching If-None-Match', 'rates/convert/USD?to=EUR,GBP,JPY', {
    ifNoneMatchOf: 'convert',
  }),
  business('convert, 400 on an empty item', 'rates/convert/USD?to=EUR,,JPY'),
  business('convert, 400 without targets', 'rates/convert/USD'),
  business('convert, 422 on an unsupported target', 'rates/convert/USD?to=EUR,XUA'),

  business('timeseries', 'rates/timeseries/USD/JPY?start=2025-05-01&end=2025-05-31'),
  business('timeseries, csv', 'rates/timeseries/USD/JPY?start=2025-05-01&end=2025-05-31&format=csv'),
  business('timeseries, csv by Accept', 'rates/timeseries/EUR/GBP?start=2025-05-01&end=2025-05-10', {
    headers: { Accept: 'text/csv' },
  }),
  business('timeseries, range not yet final', 'rates/timeseries/EUR/GBP?start=2026-09-20&end=2026-09-29'),
  business('timeseries, withdrawn currency', 'rates/timeseries/CYP/EUR?start=1999-01-01&end=1999-01-31'),
  business('timeseries, 304 on a matching If-None-Match', 'rates/timeseries/USD/JPY?start=2025-05-01&end=2025-05-31', {
    ifNoneMatchOf: 'timeseries',
  }),
  business('timeseries, 400 on a range over 366 days', 'rates/timeseries/USD/CHF?start=2024-03-01&end=2025-03-03'),
  business('timeseries, 400 on an end before the start', 'rates/timeseries/USD/CHF?start=2025-05-10&end=2025-05-01'),
  business(
    'timeseries, 400 on an unknown format',
    'rates/timeseries/USD/CHF?start=2025-05-01&end=2025-05-10&format=xml',
  ),

  { name: 'quota, Pro', path: '/v1/quota', key: 'pro' },
  { name: 'quota, Free', path: '/v1/quota', key: 'free' },
  { name: 'quota, 401 without a key', path: '/v1/quota' },
  { name: 'minute limit, first request', path: '/v1/rates/pair/EUR/USD', key: 'limited' },
  { name: 'minute limit, 429 on the second', path: '/v1/rates/pair/EUR/USD', key: 'limited' },

  business('404 on an unknown route', 'rates/oldest'),
  business('404 on another API version', '/v2/rates/latest'),
  business('404 on a method no route has', 'rates/latest', { method: 'POST' }),
];

/** GET /v1/sources alone: it changes whenever a source is added, which is then one case to re-record. */
const SOURCES_CALLS: readonly Call[] = [
  { name: 'sources', path: '/v1/sources', key: 'sources' },
  { name: 'sources, 304 on a matching If-None-Match', path: '/v1/sources', key: 'sources', ifNoneMatchOf: 'sources' },
  { name: 'sources, unknown parameters ignored', path: '/v1/sources?expand=nothing', key: 'sources' },
];

type Body = { json: unknown } | { text: string } | { lines: string[] };

interface Recorded {
  name: string;
  request: { method: string; path: string; headers: Record<string, string> };
  status: number;
  headers: Record<string, string>;
  body: Body;
}

interface Golden {
  openapi: { sha256: string; bytes: number };
  served: Recorded[];
  requests: Recorded[];
  sources: Recorded[];
}

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The body as JSON where that gives the same bytes back, else as lines, so the golden file diffs readably. */
function bodyOf(text: string): Body {
  try {
    const json: unknown = JSON.parse(text);
    if (JSON.stringify(json) === text) return { json };
  } catch {
    // not JSON: kept as text
  }
  return text.includes('\n') ? { lines: text.split('\n') } : { text };
}

function bytesOf(body: Body): string {
  if ('json' in body) return JSON.stringify(body.json);
  if ('lines' in body) return body.lines.join('\n');
  return body.text;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

class Recorder {
  private readonly secrets: [string, string][] = [];
  private readonly etags = new Map<string, string>();
  private readonly keys = new Map<KeyName, string>();

  private constructor(private readonly api: TestApi) {}

  static async start(api: TestApi, names: readonly KeyName[]): Promise<Recorder> {
    const recorder = new Recorder(api);
    for (const name of names) {
      const { plan, ...rest } = KEYS[name];
      const created = await api.newKey(plan, 'overrides' in rest ? rest.overrides : undefined);
      recorder.keys.set(name, created.key);
      recorder.secrets.push(
        [created.key, `<key:${name}>`],
        [created.accountId, `<account:${name}>`],
        [created.keyId, `<key-id:${name}>`],
      );
    }
    return recorder;
  }

  private hide(text: string): string {
    return this.secrets.reduce((out, [secret, placeholder]) => out.replaceAll(secret, placeholder), text);
  }

  /** One call after another: a key's usage, and so its quota and rate-limit headers, depends on the order. */
  async record(calls: readonly Call[], describeBody: (text: string) => Body = bodyOf): Promise<Recorded[]> {
    const out: Recorded[] = [];
    for (const call of calls) out.push(await this.one(call, describeBody));
    return out;
  }

  private async one(call: Call, describeBody: (text: string) => Body): Promise<Recorded> {
    const method = call.method ?? 'GET';
    const headers: Record<string, string> = { ...call.headers };
    if (typeof call.key === 'string') headers['X-API-Key'] = this.keys.get(call.key) ?? '';
    else if (call.key) headers['X-API-Key'] = call.key.literal;
    if (call.ifNoneMatchOf !== undefined) {
      const etag = this.etags.get(call.ifNoneMatchOf);
      if (etag === undefined) throw new Error(`${call.name}: no ETag recorded for "${call.ifNoneMatchOf}"`);
      headers['If-None-Match'] = etag;
    }
    const url = new URL(call.path, this.api.service.url);
    const res = await fetch(url, { method, headers, redirect: 'manual' });
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    const requestId = res.headers.get('x-request-id');
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of res.headers) {
      if (name === 'date') continue;
      if (name === 'x-request-id' && REQUEST_ID.test(value)) responseHeaders[name] = '<request-id>';
      else responseHeaders[name] = this.hide(value);
    }
    const etag = res.headers.get('etag');
    if (etag !== null) this.etags.set(call.name, etag);
    const bodyText = this.hide(requestId === null ? text : text.replaceAll(requestId, '<request-id>'));
    const body = describeBody(bodyText);
    if (describeBody === bodyOf && bytesOf(body) !== bodyText) throw new Error(`${call.name}: body not kept exactly`);
    return {
      name: call.name,
      request: {
        method,
        path: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.hide(v)])),
      },
      status: res.status,
      headers: responseHeaders,
      body,
    };
  }
}

/** Large bodies (the document, the reference page) by hash and length: a change shows, the file stays small. */
function digestBody(text: string): Body {
  return { json: { sha256: sha256(text), bytes: Buffer.byteLength(text) } };
}

/** Asked uncompressed: gzip's bytes belong to the Node release's zlib, not to this project. */
const UNCOMPRESSED = { 'Accept-Encoding': 'identity' };
const SERVED_CALLS: readonly Call[] = [
  { name: 'the OpenAPI document', path: '/openapi.json', headers: UNCOMPRESSED },
  { name: 'the reference page', path: '/docs/', headers: UNCOMPRESSED },
];

describe('recorded responses', () => {
  let api: TestApi;
  let recorder: Recorder;
  const recorded: Partial<Golden> = {};
  const golden: Golden | undefined = RECORD ? undefined : JSON.parse(readFileSync(GOLDEN_FILE, 'utf8'));

  beforeAll(async () => {
    api = await startTestApi({ now: '2026-09-30T12:00:00Z' });
    recorder = await Recorder.start(api, Object.keys(KEYS) as KeyName[]);
  });
  afterAll(async () => {
    await api?.close();
    if (RECORD) writeFileSync(GOLDEN_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
  });

  /** Compares entry by entry and reports only the entries that differ, so a failure shows what changed. */
  const expectAsRecorded = (actual: Recorded[], expected: Recorded[] | undefined) => {
    expect(actual.map((r) => r.name)).toEqual(expected?.map((r) => r.name));
    const differing = actual.filter((r, i) => JSON.stringify(r) !== JSON.stringify(expected?.[i]));
    const names = new Set(differing.map((r) => r.name));
    const expectedDiffering = expected?.filter((r) => names.has(r.name));
    expect(differing).toEqual(expectedDiffering);
    // toEqual ignores the order of keys, which is part of a body's bytes.
    expect(JSON.stringify(differing, null, 1)).toBe(JSON.stringify(expectedDiffering, null, 1));
  };

  it('builds the OpenAPI document byte for byte as before', () => {
    const document = buildSite()[OPENAPI_FILE];
    recorded.openapi = { sha256: sha256(document), bytes: Buffer.byteLength(document) };
    if (!RECORD) expect(recorded.openapi).toEqual(golden?.openapi);
  });

  it('serves the OpenAPI document and the reference page as before', async () => {
    recorded.served = await recorder.record(SERVED_CALLS, digestBody);
    expect(recorded.served[0]?.body).toEqual(digestBody(buildSite()[OPENAPI_FILE]));
    if (!RECORD) expectAsRecorded(recorded.served, golden?.served);
  });

  it('answers every recorded request exactly as before', async () => {
    recorded.requests = await recorder.record(CALLS);
    if (!RECORD) expectAsRecorded(recorded.requests, golden?.requests);
  });

  it('answers GET /v1/sources exactly as before', async () => {
    recorded.sources = await recorder.record(SOURCES_CALLS);
    if (!RECORD) expectAsRecorded(recorded.sources, golden?.sources);
  });
});
