import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { isCatalogCode } from '../../../lambdas/core/domain/currencies';
import { ecbPublishedAt } from '../../../lambdas/core/domain/dates';
import { parseEcbCsv, parseEcbHistoryZip, unzipEcbHistory } from '../../../lambdas/core/sources/ecb-csv';
import { DATA_DIR, ecbCsv, HOSTILE, readEcbTable } from '../../support/upstream-server';
import { formatError } from './format-error';

const realZip = readFileSync(join(DATA_DIR, 'ecb', 'eurofxref-hist.zip'));
const table = readEcbTable();
const days = parseEcbHistoryZip(realZip);

describe('the bundled ECB history zip', () => {
  it('parses every business day, oldest first', () => {
    expect(days).toHaveLength(table.rows.length);
    expect(days[0]?.date).toBe(table.rows[table.rows.length - 1]?.date);
    expect(days[days.length - 1]?.date).toBe(table.rows[0]?.date);
    expect(days.every((d, i) => i === 0 || (days[i - 1]?.date ?? '') < d.date)).toBe(true);
  });

  it('keeps each quoted catalog currency with its exact value and leaves N/A out', () => {
    for (const row of table.rows.filter((_, i) => i % 97 === 0)) {
      const day = days.find((d) => d.date === row.date);
      const expected: Record<string, number> = { EUR: 1 };
      table.codes.forEach((code, i) => {
        const value = row.values[i];
        if (value && value !== 'N/A' && isCatalogCode(code)) expected[code] = Number(value);
      });
      expect(day?.rates).toEqual(expected);
      expect(day?.publishedAt).toBe(ecbPublishedAt(row.date));
    }
  });

  it('has the majors on every day since 1999-01-04', () => {
    const missing = days.filter((d) => ['USD', 'GBP', 'JPY', 'CHF'].some((c) => d.rates[c] === undefined));
    expect(missing.map((d) => d.date)).toEqual([]);
  });

  it('keeps withdrawn currencies on their days only', () => {
    const on = (date: string) => days.find((d) => d.date === date)?.rates;
    expect(on('2007-12-31')?.CYP).toBeGreaterThan(0);
    expect(on('2008-01-02')?.CYP).toBeUndefined();
    expect(on('2022-12-30')?.HRK).toBeGreaterThan(0);
    expect(on('2023-01-02')?.HRK).toBeUndefined();
  });
});

describe('hostile history archives', () => {
  it('refuses an empty zip', () => {
    expect(formatError(() => unzipEcbHistory(zipSync({}))).message).toMatch(/found no files/);
  });

  it('refuses a truncated zip', () => {
    for (const size of [10, 1000, Math.floor(realZip.length / 2), realZip.length - 30]) {
      formatError(() => unzipEcbHistory(realZip.subarray(0, size)));
    }
  });

  it('refuses an HTML error page and arbitrary bytes', () => {
    formatError(() => unzipEcbHistory(strToU8(HOSTILE.htmlErrorPage)));
    formatError(() => unzipEcbHistory(new Uint8Array(4096).fill(7)));
  });

  it('refuses a zip without the history CSV', () => {
    expect(formatError(() => unzipEcbHistory(zipSync({ 'other.csv': strToU8('x') }))).message).toMatch(
      /expected eurofxref-hist\.csv, found other\.csv/,
    );
  });

  it('stops inflating a zip bomb at the cap even when its directory lies about the size', () => {
    const bomb = zipSync({ 'eurofxref-hist.csv': new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
    const lying = Buffer.from(bomb);
    const directory = lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(10, directory + 24);
    expect(formatError(() => unzipEcbHistory(lying, 4 * 1024 * 1024)).message).toMatch(/inflates beyond/);
  });

  it('reads the real archive the same way whatever its slicing in memory', () => {
    const copy = new Uint8Array(realZip.length + 8);
    copy.set(realZip, 8);
    expect(unzipEcbHistory(copy.subarray(8))).toBe(unzipEcbHistory(realZip));
  });

  it('stops inflating a zip bomb at the cap', () => {
    const bomb = zipSync({ 'eurofxref-hist.csv': new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(512 * 1024);
    expect(formatError(() => unzipEcbHistory(bomb, 4 * 1024 * 1024)).message).toMatch(/inflates beyond/);
  });
});

describe('hostile history CSV', () => {
  const rows = table.rows.slice(0, 3);
  const csv = ecbCsv(table, rows);
  const usd = rows[0]?.values[table.codes.indexOf('USD')] ?? '';

  it('parses the generated sample like the real file', () => {
    expect(parseEcbCsv(csv).map((d) => d.date)).toEqual(rows.map((r) => r.date).reverse());
  });

  it('refuses non-numeric, negative and zero rates', () => {
    for (const bad of ['abc', '-1.5', '0', '1e5', '']) {
      expect(formatError(() => parseEcbCsv(csv.replace(`,${usd},`, `,${bad},`))).message).toMatch(/USD/);
    }
  });

  it('refuses a line cut short (a truncated file)', () => {
    const cut = csv.slice(0, csv.trimEnd().length - 40);
    expect(formatError(() => parseEcbCsv(cut)).message).toMatch(/fields/);
  });

  it('refuses a wrong header, a bad date and a repeated day', () => {
    formatError(() => parseEcbCsv(csv.replace('Date,', 'Datum,')));
    formatError(() => parseEcbCsv(csv.replace('Date,USD', 'Date,usd')));
    formatError(() => parseEcbCsv(csv.replace(rows[0]?.date ?? '', '2026-13-01')));
    formatError(() => parseEcbCsv(csv.replace(rows[1]?.date ?? '', rows[0]?.date ?? '')));
  });

  it('refuses a header without rows and an empty body', () => {
    formatError(() => parseEcbCsv(`Date,${table.codes.join(',')},\n`));
    formatError(() => parseEcbCsv(''));
  });
});
