import { readFileSync } from 'node:fs';
import {
  buildCurrencyRows,
  CURRENCY_TABLE_PATH,
  renderCurrencyTable,
  WITHDRAWN_WITH_HISTORY,
} from '../../../scripts/gen-currencies';

describe('gen-currencies', () => {
  const rows = buildCurrencyRows();

  it('regenerates the checked-in currency table byte for byte (ICU or ISO drift shows up here)', () => {
    // On a mismatch, run `npm run gen:currencies` and review the diff of currency-table.ts.
    expect(readFileSync(CURRENCY_TABLE_PATH, 'utf8')).toBe(renderCurrencyTable(rows));
  });

  it('writes to the table the catalog imports', () => {
    expect(CURRENCY_TABLE_PATH.replace(/\\/g, '/')).toMatch(/\/lambdas\/core\/domain\/currency-table\.ts$/);
  });

  it('sorts rows by code, each code once', () => {
    const codes = rows.map((r) => r.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('takes more than 100 active codes from ISO 4217 list one', () => {
    expect(rows.filter((r) => !r.withdrawn).length).toBeGreaterThan(100);
  });

  it('leaves out metals, bond-market units, the testing code, "no currency" and funds', () => {
    const codes = new Set(rows.map((r) => r.code));
    for (const code of [
      'XAU',
      'XAG',
      'XPT',
      'XPD',
      'XBA',
      'XBB',
      'XBC',
      'XBD',
      'XTS',
      'XXX',
      'USN',
      'BOV',
      'CLF',
      'MXV',
    ]) {
      expect([code, codes.has(code)]).toEqual([code, false]);
    }
  });

  it('adds the withdrawn codes with ECB history, flagged withdrawn', () => {
    const withdrawn = rows.filter((r) => r.withdrawn).map((r) => r.code);
    expect(withdrawn.sort()).toEqual([...WITHDRAWN_WITH_HISTORY].sort());
    expect(withdrawn).toEqual(expect.arrayContaining(['CYP', 'HRK']));
  });

  it('takes names and narrow symbols from CLDR through Intl', () => {
    const usd = rows.find((r) => r.code === 'USD');
    expect(usd).toEqual({ code: 'USD', en: 'US Dollar', de: 'US-Dollar', symbol: '$', withdrawn: false });
    const eur = rows.find((r) => r.code === 'EUR');
    expect(eur?.symbol).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR', currencyDisplay: 'narrowSymbol' })
        .formatToParts(1)
        .find((p) => p.type === 'currency')?.value,
    );
  });

  it('renders valid TypeScript rows that escape quotes in names', () => {
    const text = renderCurrencyTable([
      { code: 'AAA', en: 'A "quoted" name', de: 'Ä\\b', symbol: '$', withdrawn: true },
    ]);
    expect(text).toContain('  "AAA": true,');
    expect(text).toContain('  "AAA": ["A \\"quoted\\" name","Ä\\\\b","$"],');
    expect(text.endsWith('};\n')).toBe(true);
  });
});
