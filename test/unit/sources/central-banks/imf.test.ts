import { IMF_PUBLISHER, imfRequests, parseImf } from '../../../../lambdas/core/sources/central-banks/imf';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('imf');
const rep = files[0]?.body as Buffer;
const sdr = files[1]?.body as Buffer;
const repText = rep.toString('utf8');
const sdrText = sdr.toString('utf8');
const dollarDays = parseImf(rep);
const sdrDays = parseImf(sdr);
const NAME = 'International Monetary Fund';
const on = (days: typeof dollarDays, date: string) => days.find((d) => d.date === date);

describe('the recorded IMF representative rates for March 2026', () => {
  it('has the 22 IMF business days, priced in dollars, with 25 to 35 currencies a day', () => {
    expect(dollarDays).toHaveLength(22);
    expect(dollarDays[0]?.date).toBe('2026-03-02');
    expect(dollarDays[21]?.date).toBe('2026-03-31');
    expect(dollarDays.every((d) => d.quoteCurrency === 'USD' && d.publisher === 'imf')).toBe(true);
    const counts = dollarDays.map((d) => Object.keys(d.quotes).length);
    expect(Math.min(...counts)).toBe(25);
    expect(Math.max(...counts)).toBe(35);
    expect(Object.keys(on(dollarDays, '2026-03-20')?.quotes ?? {})).toHaveLength(25);
  });

  it('maps the 35 currency names to codes, never listing the dollar itself', () => {
    const codes = new Set(dollarDays.flatMap((d) => Object.keys(d.quotes)));
    expect(codes.size).toBe(35);
    expect(codes.has('USD')).toBe(false);
    expect(codes.has('ILS') && codes.has('TTD') && codes.has('AED') && codes.has('GBP')).toBe(true);
  });

  it('keeps units per dollar and dollars per unit (marked (1)) each in its own direction', () => {
    const day = on(dollarDays, '2026-03-02');
    expect(day?.quotes.JPY).toEqual({ amount: '156.400000', price: '1' });
    expect(day?.quotes.EUR).toEqual({ amount: '1', price: '1.169800' });
    expect(day?.quotes.GBP).toEqual({ amount: '1', price: '1.341050' });
    expect(day?.quotes.AUD).toEqual({ amount: '1', price: '0.709400' });
    expect(day?.quotes.BWP).toEqual({ amount: '1', price: '0.077200' });
    expect(day?.quotes.ILS).toEqual({ amount: '3.073000', price: '1' });
  });

  it('drops thousands separators and skips NA', () => {
    expect(on(dollarDays, '2026-03-03')?.quotes.KRW).toEqual({ amount: '1435.400000', price: '1' });
    expect(on(dollarDays, '2026-03-02')?.quotes.KRW).toBeUndefined();
    expect(on(dollarDays, '2026-03-09')?.quotes.AUD).toBeUndefined();
  });
});

describe('the recorded IMF SDR values for March 2026', () => {
  it('prices 26 to 36 currencies, the dollar among them, in SDR', () => {
    expect(sdrDays).toHaveLength(22);
    expect(sdrDays.every((d) => d.quoteCurrency === 'XDR')).toBe(true);
    expect(new Set(sdrDays.flatMap((d) => Object.keys(d.quotes))).size).toBe(36);
    const day = on(sdrDays, '2026-03-02');
    expect(day?.quotes.USD).toEqual({ amount: '1', price: '0.7296240000' });
    expect(day?.quotes.EUR).toEqual({ amount: '1', price: '0.8535140000' });
    expect(day?.quotes.JPY).toEqual({ amount: '1', price: '0.0046651200' });
    expect(Object.keys(on(sdrDays, '2026-03-20')?.quotes ?? {})).toHaveLength(26);
  });
});

describe('IMF requests', () => {
  it('builds the two recorded requests for March 2026', () => {
    expect(imfRequests('2026-03-01', '2026-03-31')).toEqual(files.map((f) => f.uri));
  });

  it('asks for each month of a range, up to its end, on any origin', () => {
    expect(imfRequests('2026-02-20', '2026-04-15', 'http://127.0.0.1:9')).toEqual(
      ['2026-02-28', '2026-03-31', '2026-04-15'].flatMap((d) => [
        `http://127.0.0.1:9/external/np/fin/data/rms_mth.aspx?SelectDate=${d}&reportType=REP&tsvflag=Y`,
        `http://127.0.0.1:9/external/np/fin/data/rms_mth.aspx?SelectDate=${d}&reportType=SDRCV&tsvflag=Y`,
      ]),
    );
    expect(imfRequests('2025-12-31', '2026-01-02')).toHaveLength(4);
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...IMF_PUBLISHER }, facts);
  });
});

describe('damaged IMF reports', () => {
  it('refuses a report cut anywhere before its notes', () => {
    for (const size of [0, 30, 400, Math.floor(rep.length / 2), repText.indexOf('Notes:') - 3]) {
      publisherError(NAME, () => parseImf(rep.subarray(0, size)));
    }
    expect(publisherError(NAME, () => parseImf(rep.subarray(0, repText.indexOf('\r\n\r\nNotes:'))))).toMatch(
      /ends before its notes/,
    );
  });

  it('refuses an HTML error page and another report', () => {
    expect(publisherError(NAME, () => parseImf(bytes('<html><body>Error</body></html>')))).toMatch(/HTML/);
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('Representative', 'Indicative'))))).toMatch(
      /not a rates report/,
    );
  });

  it('refuses a garbage number and a badly grouped one', () => {
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('156.400000', '156.4O0000'))))).toMatch(
      /Japanese yen on 2026-03-02/,
    );
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('1,435.400000', '14,35.400000'))))).toMatch(
      /Korean won on 2026-03-03/,
    );
  });

  it('refuses a row with a missing column', () => {
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('\t156.400000', ''))))).toMatch(
      /11 fields, expected 12/,
    );
  });

  it('refuses a currency twice on one day, a day twice and a day outside the month', () => {
    const twice = repText.replace('Brunei dollar\t', 'Singapore dollar\t');
    expect(publisherError(NAME, () => parseImf(bytes(twice)))).toMatch(/SGD is quoted twice on 2026-03-02/);
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('March 17, 2026', 'March 16, 2026'))))).toMatch(
      /2026-03-16 appears twice/,
    );
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('March 17, 2026', 'April 17, 2026'))))).toMatch(
      /not a day of March 2026/,
    );
  });

  it('refuses an unknown footnote mark and a dollar that is not one dollar', () => {
    expect(publisherError(NAME, () => parseImf(bytes(repText.replace('Euro(1)', 'Euro(2)'))))).toMatch(
      /unexpected row/,
    );
    expect(publisherError(NAME, () => parseImf(bytes(sdrText.replace('Euro\t', 'Euro(1)\t'))))).toMatch(
      /unexpected row/,
    );
    const dollar = repText.replace('U.S. dollar\t1.000000', 'U.S. dollar\t1.100000');
    expect(publisherError(NAME, () => parseImf(bytes(dollar)))).toMatch(/dollar is 1.100000/);
  });

  it('refuses a day on which no currency has a rate', () => {
    const lines = repText.split('\r\n').map((line) => {
      const fields = line.split('\t');
      if (fields.length !== 12 || fields[0] === 'Currency' || fields[0] === 'U.S. dollar') return line;
      fields[1] = 'NA';
      return fields.join('\t');
    });
    expect(publisherError(NAME, () => parseImf(bytes(lines.join('\r\n'))))).toMatch(/2026-03-02 has no quotes/);
  });
});
