import { loadBundledRates } from '../../bench/support/bundled-rates';
import type { LimitOverrides, PlanId } from '../../lambdas/core/domain/plans';
import {
  type LocalLayout,
  type LocalService,
  type LocalServiceOptions,
  type RatesTarget,
  startLocalService,
} from '../../local-server/service';

/** A clock tests move by hand; the service reads it for dates, the Pro window, and the metering windows. */
export class TestClock {
  private at: number;
  constructor(iso: string) {
    this.at = Date.parse(iso);
  }
  set(iso: string): void {
    this.at = Date.parse(iso);
  }
  advance(ms: number): void {
    this.at += ms;
  }
  readonly now = (): Date => new Date(this.at);
}

export interface ApiReply {
  status: number;
  headers: Headers;
  text: string;
  json: () => {
    success: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; param?: string };
    meta?: { timestamp: string };
  };
}

export interface TestApi {
  service: LocalService;
  clock: TestClock;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<ApiReply>;
  request(method: string, path: string, headers?: Record<string, string>): Promise<ApiReply>;
  /** A verified account with its own key; generous limits unless given. */
  newKey(plan: PlanId, overrides?: LimitOverrides): Promise<{ key: string; accountId: string; keyId: string }>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  now?: string;
  /** Loads rates into the store; default: the bundled data for the windows the API tests use. */
  loadRates?: ((target: RatesTarget) => Promise<string>) | false;
  recordCacheTtlMs?: number;
  /** The threads it runs on; the service's default layout unless given. */
  layout?: LocalLayout;
  /** Start the account dashboard and its Cognito emulator too (off unless asked: most tests need neither). */
  dashboard?: boolean;
  /** Wraps the authorizer's transport to the store, for faults the authorizer alone sees (test/support/store-faults.ts). */
  authorizerTransport?: LocalServiceOptions['authorizerTransport'];
}

/** The local service on an ephemeral loopback port with an in-memory store, as `npm start` runs it. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const clock = new TestClock(options.now ?? '2026-09-30T12:00:00Z');
  const service = await startLocalService({
    port: 0,
    clock: clock.now,
    ...(options.loadRates === false ? {} : { loadRates: options.loadRates ?? loadBundledRates }),
    ...(options.recordCacheTtlMs !== undefined ? { recordCacheTtlMs: options.recordCacheTtlMs } : {}),
    ...(options.layout ? { layout: options.layout } : {}),
    dashboard: options.dashboard ?? false,
    ...(options.authorizerTransport ? { authorizerTransport: options.authorizerTransport } : {}),
  });
  const request = async (method: string, path: string, headers: Record<string, string> = {}): Promise<ApiReply> => {
    const res = await fetch(`${service.url}${path.replace(/^\//, '')}`, { method, headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  };
  let counter = 0;
  return {
    service,
    clock,
    request,
    get: (path, key, headers = {}) =>
      request('GET', path, key === undefined ? headers : { 'X-API-Key': key, ...headers }),
    newKey: async (plan, overrides = { perMinute: 100_000, monthlyLimit: 1_000_000 }) => {
      const account = await service.accounts.createAccount({
        accountId: `test-${plan}-${++counter}-${Date.now()}`,
        plan,
        verified: true,
        overrides,
      });
      const created = await service.accounts.createKey(account.accountId, 'test');
      return { key: created.key, accountId: account.accountId, keyId: created.keyId };
    },
    close: () => service.close(),
  };
}

/**
 * One test API for the enclosing describe block, started before its tests and closed after them, with a
 * Business key of generous limits. Read `api` and `key` inside tests, once beforeAll has run.
 */
export function useTestApi(options: TestApiOptions = {}): { readonly api: TestApi; readonly key: string } {
  const holder: { api?: TestApi; key?: string } = {};
  beforeAll(async () => {
    holder.api = await startTestApi(options);
    holder.key = (await holder.api.newKey('business')).key;
  });
  afterAll(() => holder.api?.close());
  return {
    get api() {
      if (!holder.api) throw new Error('the test API starts in beforeAll');
      return holder.api;
    },
    get key() {
      if (!holder.key) throw new Error('the test API starts in beforeAll');
      return holder.key;
    },
  };
}
