import type { Access, Verdict } from '../../../lambdas/core/http/authorizer-context';
import {
  meteringHeaders,
  refusalHeaders,
  STORE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  verdictError,
} from '../../../lambdas/core/http/middleware';
import { METER_AT, proMeter } from '../../support/meter';

describe('verdictError', () => {
  it('is undefined for an admitted request', () => {
    expect(verdictError({ verdict: 'admitted' })).toBeUndefined();
  });

  it.each([
    ['api-key-in-url', 400, 'X-API-Key'],
    ['account-inactive', 403, undefined],
    ['rate-limit-exceeded', 429, undefined],
    ['quota-exceeded', 429, undefined],
  ] as const)('maps %s to the contract error with status %s', (verdict: Verdict, status, param) => {
    const error = verdictError({ verdict });
    expect(error?.code).toBe(verdict);
    expect(error?.status).toBe(status);
    expect(error?.param).toBe(param);
  });
});

describe('an unavailable store', () => {
  it('is 503 service-unavailable with Retry-After: 5 and no rate-limit headers, since nothing was metered', () => {
    const access: Access = { verdict: 'unavailable', accountId: 'acc-1', plan: 'pro' };
    expect(verdictError(access)).toMatchObject({ code: 'service-unavailable', status: 503 });
    expect(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS).toBe(5);
    expect(refusalHeaders(access)).toEqual({ 'Retry-After': '5' });
    expect(meteringHeaders(access)).toEqual({});
  });
});

describe('meteringHeaders', () => {
  it('adds the six rate-limit headers when the request was metered', () => {
    const headers = meteringHeaders({ verdict: 'admitted', meter: proMeter({ minuteUsed: 1, monthUsed: 900 }) });
    expect(headers).toEqual({
      'X-RateLimit-Limit-Minute': '60',
      'X-RateLimit-Remaining-Minute': '59',
      'X-RateLimit-Limit-Month': '33000',
      'X-RateLimit-Remaining-Month': '32100',
      // September has 30 days: w = 30 × 86400; the minute resets 41 s after 10:20:19.
      'RateLimit-Policy': `"minute";q=60;w=60, "month";q=33000;w=${30 * 86400}`,
      RateLimit: '"minute";r=59;t=41',
    });
  });

  it('adds nothing without metering', () => {
    expect(meteringHeaders({ verdict: 'api-key-in-url' })).toEqual({});
    expect(meteringHeaders({ verdict: 'account-inactive', accountId: 'a' })).toEqual({});
  });
});

describe('refusalHeaders', () => {
  it('sends Retry-After until the minute resets on a per-minute refusal', () => {
    const access: Access = {
      verdict: 'rate-limit-exceeded',
      meter: proMeter({ verdict: 'rate-limit-exceeded', minuteUsed: 60 }),
    };
    expect(refusalHeaders(access)).toEqual({ 'Retry-After': '41' });
  });

  it('sends Retry-After until the month resets on a quota refusal', () => {
    const access: Access = {
      verdict: 'quota-exceeded',
      meter: proMeter({ verdict: 'quota-exceeded', monthUsed: 33000 }),
    };
    const seconds = (Date.parse('2026-10-01T00:00:00Z') - METER_AT) / 1000;
    expect(refusalHeaders(access)).toEqual({ 'Retry-After': String(seconds) });
  });

  it('sends at least 1 second at the very end of a window', () => {
    const end = Date.parse('2026-09-15T10:20:59.999Z');
    const access: Access = {
      verdict: 'rate-limit-exceeded',
      meter: proMeter({ verdict: 'rate-limit-exceeded', at: end }),
    };
    expect(Number(refusalHeaders(access)['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('sends nothing for an admitted or unmetered request', () => {
    expect(refusalHeaders({ verdict: 'admitted', meter: proMeter() })).toEqual({});
    expect(refusalHeaders({ verdict: 'account-inactive' })).toEqual({});
  });
});
