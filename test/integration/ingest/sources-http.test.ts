import { createServer } from 'node:net';
import { zipSync } from 'fflate';
import { CurrencyApiSource } from '../../../lambdas/core/sources/currency-api';
import { EcbSource } from '../../../lambdas/core/sources/ecb';
import {
  SourceError,
  SourceFormatError,
  SourceHttpError,
  SourceNetworkError,
  SourceTimeoutError,
  SourceTooLargeError,
} from '../../../lambdas/core/sources/errors';
import { fetchBody } from '../../../lambdas/core/sources/http';
import { HOSTILE, last90Rows, readEcbTable, useUpstreamServer } from '../../support/upstream-server';

jest.setTimeout(30_000);

const upstream = useUpstreamServer();
const table = readEcbTable();

const ecb = (timeoutMs = 5000) => new EcbSource({ baseUrl: upstream.server.urls.ecbBaseUrl, timeoutMs });
const currencyApi = (timeoutMs = 5000) =>
  new CurrencyApiSource({
    baseUrl: upstream.server.urls.currencyApiBaseUrl,
    fallbackUrl: upstream.server.urls.currencyApiFallbackUrl,
    timeoutMs,
  });

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }
  throw new Error('expected the fetch to fail');
}

describe('source adapters over HTTP', () => {
  it('fetch the ECB daily, 90-day and full-history files', async () => {
    const [daily, window, history] = await Promise.all([ecb().daily(), ecb().last90Days(), ecb().history()]);
    expect(daily.map((d) => d.date)).toEqual([table.rows[0]?.date]);
    expect(window).toHaveLength(last90Rows(table).length);
    expect(history).toHaveLength(table.rows.length);
    expect(window[window.length - 1]).toEqual(daily[0]);
  });

  it('fetch currency-api latest and a given day from the primary URL', async () => {
    const latest = await currencyApi().day('latest');
    const day = await currencyApi().day('2026-09-10');
    expect(day.date).toBe('2026-09-10');
    expect(latest.date > day.date).toBe(true);
    expect(upstream.server.requests).toEqual([
      upstream.server.currencyApiPath('latest'),
      upstream.server.currencyApiPath('2026-09-10'),
    ]);
  });

  it('fall back to the second currency-api URL when the primary fails', async () => {
    upstream.server.override(upstream.server.currencyApiPath('latest'), { status: 503 });
    const latest = await currencyApi().day('latest');
    expect(latest.rates.USD).toBeGreaterThan(0);
    expect(upstream.server.requests).toEqual([
      upstream.server.currencyApiPath('latest'),
      upstream.server.fallbackPath('latest'),
    ]);
  });

  it('report both URLs when primary and fallback fail', async () => {
    upstream.server.override(upstream.server.currencyApiPath('latest'), { status: 503 });
    upstream.server.override(upstream.server.fallbackPath('latest'), {
      body: HOSTILE.htmlErrorPage,
      contentType: 'text/html',
    });
    const error = await failure(currencyApi().day('latest'));
    expect(error.kind).toBe('format');
    expect(error.message).toMatch(/HTTP 503.*fallback: not currency-api JSON/);
  });

  it('turn an HTTP 5xx into a typed error with the status', async () => {
    upstream.server.override(upstream.server.ecbPath('eurofxref-daily.xml'), {
      status: 500,
      body: 'Internal Server Error',
    });
    const error = await failure(ecb().daily());
    expect(error).toBeInstanceOf(SourceHttpError);
    expect((error as SourceHttpError).status).toBe(500);
  });

  it('refuse an HTML error page, entity-expansion XML, an empty and a truncated zip', async () => {
    upstream.server.override(upstream.server.ecbPath('eurofxref-daily.xml'), { body: HOSTILE.htmlErrorPage });
    upstream.server.override(upstream.server.ecbPath('eurofxref-hist-90d.xml'), { body: HOSTILE.entityExpansion });
    upstream.server.override(upstream.server.ecbPath('eurofxref-hist.zip'), { body: zipSync({}) });
    expect(await failure(ecb().daily())).toBeInstanceOf(SourceFormatError);
    expect((await failure(ecb().last90Days())).message).toMatch(/DOCTYPE/);
    expect((await failure(ecb().history())).message).toMatch(/no files/);
    upstream.server.reset();
    const zip = await fetchBody(`${upstream.server.urls.ecbBaseUrl}/eurofxref-hist.zip`, {
      timeoutMs: 5000,
      maxBytes: 1e7,
    });
    upstream.server.override(upstream.server.ecbPath('eurofxref-hist.zip'), { body: zip.subarray(0, zip.length / 2) });
    expect(await failure(ecb().history())).toBeInstanceOf(SourceFormatError);
  });

  it('name the URL in format errors', async () => {
    upstream.server.override(upstream.server.ecbPath('eurofxref-daily.xml'), { body: '{"not": "xml"}' });
    expect((await failure(ecb().daily())).url).toBe(`${upstream.server.urls.ecbBaseUrl}/eurofxref-daily.xml`);
  });
});

describe('fetchBody limits', () => {
  const url = (path: string) => `${upstream.server.origin}${path}`;

  it('times out a response that is slow to start', async () => {
    upstream.server.override('/slow', { delayMs: 3000 });
    const started = Date.now();
    expect(await failure(fetchBody(url('/slow'), { timeoutMs: 200, maxBytes: 1000 }))).toBeInstanceOf(
      SourceTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('times out a body that never ends, whether it stalls or trickles', async () => {
    upstream.server.override('/stall', { stall: true });
    upstream.server.override('/trickle', { trickle: true });
    for (const path of ['/stall', '/trickle']) {
      const started = Date.now();
      const error = await failure(fetchBody(url(path), { timeoutMs: 300, maxBytes: 1_000_000 }));
      expect(error).toBeInstanceOf(SourceTimeoutError);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('cuts off an endless body once it passes the size cap', async () => {
    upstream.server.override('/flood', { flood: true });
    const error = await failure(fetchBody(url('/flood'), { timeoutMs: 10_000, maxBytes: 256 * 1024 }));
    expect(error).toBeInstanceOf(SourceTooLargeError);
  });

  it('refuses a declared length over the cap before reading it', async () => {
    upstream.server.override('/big', { body: 'x'.repeat(300_000) });
    expect(await failure(fetchBody(url('/big'), { timeoutMs: 5000, maxBytes: 100_000 }))).toBeInstanceOf(
      SourceTooLargeError,
    );
    const body = await fetchBody(url('/big'), { timeoutMs: 5000, maxBytes: 300_000 });
    expect(body.byteLength).toBe(300_000);
  });

  it('reports a refused connection as a network error', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const error = await failure(fetchBody(`http://127.0.0.1:${port}/x`, { timeoutMs: 2000, maxBytes: 1000 }));
    expect(error).toBeInstanceOf(SourceNetworkError);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('stops when a shared deadline passes', async () => {
    upstream.server.override('/stall', { stall: true });
    const started = Date.now();
    const error = await failure(
      fetchBody(url('/stall'), { timeoutMs: 10_000, maxBytes: 1000, signal: AbortSignal.timeout(200) }),
    );
    expect(error).toBeInstanceOf(SourceTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
