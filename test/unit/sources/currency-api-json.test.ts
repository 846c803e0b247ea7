import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isActiveCode } from '../../../lambdas/core/domain/currencies';
import { currencyApiPublishedAt } from '../../../lambdas/core/domain/dates';
import { parseCurrencyApiJson } from '../../../lambdas/core/sources/currency-api-json';
import { DATA_DIR, HOSTILE } from '../../support/upstream-server';
import { formatError } from './format-error';

const date = '2026-09-15';
const text = readFileSync(join(DATA_DIR, 'currency-api', `eur-${date}.min.json`), 'utf8');
const raw = JSON.parse(text) as { date: string; eur: Record<string, number> };

const withRates = (changes: Record<string, unknown>) => JSON.stringify({ ...raw, eur: { ...raw.eur, ...changes } });

describe('parseCurrencyApiJson on a real day file', () => {
  const day = parseCurrencyApiJson(text, { expectedDate: date });

  it('keeps exactly the active catalog currencies, upper-cased, with their values', () => {
    const active = Object.keys(raw.eur).filter((k) => isActiveCode(k.toUpperCase()));
    expect(Object.keys(day.rates).sort()).toEqual(active.map((k) => k.toUpperCase()).sort());
    expect(day.rates.USD).toBe(raw.eur.usd);
    expect(day.rates.EUR).toBe(1);
    expect(Object.keys(day.rates).length).toBeGreaterThan(150);
  });

  it('drops crypto tokens, unknown legacy codes and withdrawn currencies', () => {
    expect(raw.eur.btc).toBeDefined();
    expect(raw.eur.ats).toBeDefined();
    expect(raw.eur.cyp).toBeDefined();
    for (const code of ['BTC', 'ATS', 'CYP', 'HRK', '1INCH']) expect(day.rates[code]).toBeUndefined();
  });

  it('dates the snapshot and its publication at 00:00 UTC', () => {
    expect(day).toMatchObject({ source: 'currency-api', date, base: 'EUR', publishedAt: currencyApiPublishedAt(date) });
  });

  it('ignores malformed values of entries it does not keep', () => {
    expect(parseCurrencyApiJson(withRates({ btc: 'n/a', xyz1: null })).rates.USD).toBe(raw.eur.usd);
  });
});

describe('parseCurrencyApiJson on hostile input', () => {
  it('refuses truncated JSON', () => {
    for (const cut of [1, 100, Math.floor(text.length / 2), text.length - 1]) {
      expect(formatError(() => parseCurrencyApiJson(text.slice(0, cut))).message).toMatch(/does not parse/);
    }
  });

  it('refuses deeply nested JSON without crashing', () => {
    formatError(() => parseCurrencyApiJson('['.repeat(400_000)));
    formatError(() => parseCurrencyApiJson(`{"date":"${date}","eur":${'['.repeat(100_000)}${']'.repeat(100_000)}}`));
  });

  it('refuses an HTML error page', () => {
    formatError(() => parseCurrencyApiJson(HOSTILE.htmlErrorPage));
  });

  it('refuses negative, zero, non-numeric and missing values of kept currencies', () => {
    for (const bad of [-1.1, 0, '1.13', null, true, {}]) {
      expect(formatError(() => parseCurrencyApiJson(withRates({ usd: bad }))).message).toMatch(/USD/);
    }
  });

  it('refuses a file for another day than the one asked for', () => {
    expect(formatError(() => parseCurrencyApiJson(text, { expectedDate: '2026-09-16' })).message).toMatch(/says/);
  });

  it('refuses a missing or invalid date and a missing rate table', () => {
    formatError(() => parseCurrencyApiJson(JSON.stringify({ eur: raw.eur })));
    formatError(() => parseCurrencyApiJson(JSON.stringify({ ...raw, date: '2026-02-30' })));
    formatError(() => parseCurrencyApiJson(JSON.stringify({ date })));
    formatError(() => parseCurrencyApiJson(JSON.stringify({ date, eur: [1, 2] })));
    formatError(() => parseCurrencyApiJson('[]'));
  });

  it('refuses a table without a single supported currency and EUR not quoted as 1', () => {
    formatError(() => parseCurrencyApiJson(JSON.stringify({ date, eur: { btc: 0.00001 } })));
    formatError(() => parseCurrencyApiJson(withRates({ eur: 1.1 })));
  });

  it('reads another base when asked, keeping that base as 1', () => {
    const usdBased = JSON.stringify({ date, usd: { usd: 1, eur: 0.88, gbp: 0.75 } });
    expect(parseCurrencyApiJson(usdBased, { base: 'usd' })).toMatchObject({
      base: 'USD',
      rates: { USD: 1, EUR: 0.88, GBP: 0.75 },
    });
  });
});
