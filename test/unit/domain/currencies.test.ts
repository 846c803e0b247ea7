import {
  catalogCodes,
  currencyInfo,
  isActiveCode,
  isCatalogCode,
  LOCALES,
  normalizeCode,
} from '../../../lambdas/core/domain/currencies';
import { CURRENCY_NAMES, CURRENCY_STATUS } from '../../../lambdas/core/domain/currency-table';

const activeCodes = () => catalogCodes().filter(isActiveCode);

describe('currency catalog', () => {
  it('supports more than 100 active ISO 4217 codes', () => {
    expect(activeCodes().length).toBeGreaterThan(100);
  });

  it('holds the majors every source delivers', () => {
    for (const code of ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'CNY', 'AUD', 'CAD', 'SEK', 'NOK', 'INR', 'BRL', 'ZAR']) {
      expect([code, isActiveCode(code)]).toEqual([code, true]);
    }
  });

  it('lists only three upper-case letters, each once', () => {
    const codes = catalogCodes();
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it('does not support crypto tokens', () => {
    for (const code of ['BTC', 'ETH', 'USDT', 'DOGE', 'LTC', 'XRP', 'BNB', 'SOL', 'ADA']) {
      expect([code, isCatalogCode(code)]).toEqual([code, false]);
    }
  });

  it('does not support precious metals, bond-market units, the testing code or "no currency"', () => {
    for (const code of ['XAU', 'XAG', 'XPT', 'XPD', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX']) {
      expect([code, isCatalogCode(code)]).toEqual([code, false]);
    }
  });

  it('keeps withdrawn codes with ECB history for the historical endpoint only', () => {
    for (const code of ['CYP', 'HRK', 'EEK', 'LTL', 'LVL', 'MTL', 'SIT', 'SKK', 'ROL', 'TRL']) {
      expect([code, isCatalogCode(code), isActiveCode(code), currencyInfo(code)?.withdrawn]).toEqual([
        code,
        true,
        false,
        true,
      ]);
    }
  });

  it('marks every active code as not withdrawn', () => {
    for (const code of activeCodes()) expect(currencyInfo(code)?.withdrawn).toBe(false);
  });

  it('does not treat the legacy predecessors of current codes as active', () => {
    // ROL and TRL were replaced by RON and TRY.
    expect(isActiveCode('RON')).toBe(true);
    expect(isActiveCode('TRY')).toBe(true);
    expect(isActiveCode('ROL')).toBe(false);
    expect(isActiveCode('TRL')).toBe(false);
  });

  it('is case-sensitive: the HTTP layer upper-cases client input first', () => {
    expect(isCatalogCode('usd')).toBe(false);
    expect(currencyInfo('usd')).toBeUndefined();
    expect(normalizeCode(' usd ')).toBe('USD');
    expect(isActiveCode(normalizeCode('chf'))).toBe(true);
  });

  it('does not answer for inherited object properties', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(isCatalogCode(name)).toBe(false);
      expect(currencyInfo(name)).toBeUndefined();
    }
  });
});

describe('currency names and symbols', () => {
  it('names USD "US Dollar" in English and "US-Dollar" in German', () => {
    expect(currencyInfo('USD')?.name).toEqual({ en: 'US Dollar', de: 'US-Dollar' });
  });

  it('names EUR and CHF from CLDR in both locales', () => {
    expect(currencyInfo('EUR')?.name).toEqual({ en: 'Euro', de: 'Euro' });
    expect(currencyInfo('CHF')?.name).toEqual({ en: 'Swiss Franc', de: 'Schweizer Franken' });
    expect(currencyInfo('GBP')?.name.en).toBe('British Pound');
    expect(currencyInfo('JPY')?.name.en).toBe('Japanese Yen');
  });

  it('uses the narrow en symbols of the contract: USD $, EUR €, GBP £, JPY ¥, CHF CHF', () => {
    const symbols = Object.fromEntries(['USD', 'EUR', 'GBP', 'JPY', 'CHF'].map((c) => [c, currencyInfo(c)?.symbol]));
    expect(symbols).toEqual({ USD: '$', EUR: '€', GBP: '£', JPY: '¥', CHF: 'CHF' });
  });

  it('has a non-empty name in every locale and a non-empty symbol for every code', () => {
    for (const code of catalogCodes()) {
      const info = currencyInfo(code);
      expect(info?.code).toBe(code);
      for (const locale of LOCALES) expect(info?.name[locale].length).toBeGreaterThan(0);
      expect(info?.symbol.length).toBeGreaterThan(0);
    }
  });

  it('has an English name other than the bare code for every code', () => {
    const unnamed = catalogCodes().filter((code) => currencyInfo(code)?.name.en === code);
    expect(unnamed).toEqual([]);
  });

  it('serves exactly the rows of the generated table', () => {
    expect(catalogCodes().sort()).toEqual(Object.keys(CURRENCY_STATUS).sort());
    expect(Object.keys(CURRENCY_NAMES).sort()).toEqual(Object.keys(CURRENCY_STATUS).sort());
    for (const [code, [en, de, symbol]] of Object.entries(CURRENCY_NAMES)) {
      expect(currencyInfo(code)).toEqual({ code, name: { en, de }, symbol, withdrawn: CURRENCY_STATUS[code] });
    }
  });

  it('knows no code that is only a property of every object', () => {
    for (const code of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect([code, isCatalogCode(code), isActiveCode(code), currencyInfo(code)]).toEqual([
        code,
        false,
        false,
        undefined,
      ]);
    }
  });
});
