import { BOI_PUBLISHER, boiRequests, parseBoi } from '../../../../lambdas/core/sources/central-banks/boi';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('boi');
const body = files[0]?.body as Buffer;
const text = body.toString('utf8');
const days = parseBoi(body);
const NAME = 'Bank of Israel';

describe('the recorded Bank of Israel representative rates', () => {
  it('has three days priced in shekels: 14 currencies on 2 March, 7 on 5 and 6 March', () => {
    expect(days.map((d) => d.date)).toEqual(['2026-03-02', '2026-03-05', '2026-03-06']);
    expect(days.map((d) => Object.keys(d.quotes).length)).toEqual([14, 7, 7]);
    expect(days.every((d) => d.quoteCurrency === 'ILS' && d.publisher === 'boi')).toBe(true);
    expect(new Set(days.flatMap((d) => Object.keys(d.quotes))).size).toBe(14);
  });

  it('applies the unit multiplier as an amount, never dividing', () => {
    const day = days[0];
    expect(day?.quotes.USD).toEqual({ amount: '1', price: '3.073' });
    expect(day?.quotes.EUR).toEqual({ amount: '1', price: '3.5601' });
    expect(day?.quotes.JPY).toEqual({ amount: '100', price: '1.971' });
    expect(day?.quotes.LBP).toEqual({ amount: '10', price: '0.0003' });
    expect(days[2]?.quotes.JOD).toEqual({ amount: '1', price: '4.3392' });
  });

  it('builds the recorded request for the recorded range, and on another origin', () => {
    expect(boiRequests('2026-03-01', '2026-03-20')).toEqual(files.map((f) => f.uri));
    expect(boiRequests('2026-03-01', '2026-03-20', 'http://127.0.0.1:9')[0]).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/FusionEdgeServer\/sdmx\/v2\/data\/dataflow\/BOI\.STATISTICS\/EXR\/1\.0\/\?/,
    );
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...BOI_PUBLISHER }, facts);
  });

  it('finds columns by name and reads a quoted comment', () => {
    const lines = text.trimEnd().split('\n');
    const moved = lines.map((line) => {
      const fields = line.split(',');
      return [fields[13], ...fields.slice(0, 13), fields[14]].join(',');
    });
    expect(parseBoi(bytes(`${moved.join('\n')}\n`))).toEqual(days);
    const commented = text.replace(
      'RER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,',
      'RER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,"a, ""b""",',
    );
    expect(parseBoi(bytes(commented))).toEqual(days);
  });

  it('skips an empty observation', () => {
    const parsed = parseBoi(bytes(text.replace('2026-03-02,3.073,', '2026-03-02,,')));
    expect(parsed[0]?.quotes.USD).toBeUndefined();
  });
});

describe('damaged Bank of Israel bodies', () => {
  it('refuses a truncated body', () => {
    for (const size of [0, 50, 300, body.length - 1, body.length - 3]) {
      publisherError(NAME, () => parseBoi(body.subarray(0, size)));
    }
  });

  it('refuses an HTML error page', () => {
    expect(publisherError(NAME, () => parseBoi(bytes('<html><body>Forbidden</body></html>\n')))).toMatch(/HTML/);
  });

  it('refuses a garbage number and a garbage multiplier', () => {
    expect(
      publisherError(NAME, () => parseBoi(bytes(text.replace('2026-03-02,3.073,', '2026-03-02,3.07e3,')))),
    ).toMatch(/USD on 2026-03-02/);
    expect(publisherError(NAME, () => parseBoi(bytes(text.replace('Y,2,,2026-03-02', 'Y,-2,,2026-03-02'))))).toMatch(
      /UNIT_MULT/,
    );
  });

  it('refuses a missing column, header or cell', () => {
    expect(publisherError(NAME, () => parseBoi(bytes(text.replace(',UNIT_MULT,', ',MULT,'))))).toMatch(
      /no UNIT_MULT column/,
    );
    expect(
      publisherError(NAME, () =>
        parseBoi(
          bytes(text.replace('OF00,BOI_MRKT,V,F,Y,0,,2026-03-02,3.073', 'OF00,BOI_MRKT,V,F,Y,0,2026-03-02,3.073')),
        ),
      ),
    ).toMatch(/14 fields, expected 15/);
  });

  it('refuses a currency twice on one day', () => {
    expect(publisherError(NAME, () => parseBoi(bytes(text.replace('2026-03-05,3.072', '2026-03-02,3.072'))))).toMatch(
      /USD is quoted twice on 2026-03-02/,
    );
  });

  it('refuses another counter currency, data type or series, and a bad date', () => {
    expect(
      publisherError(NAME, () => parseBoi(bytes(text.replace('D,USD,ILS,ILS,OF00', 'D,USD,EUR,ILS,OF00')))),
    ).toMatch(/COUNTER_CURRENCY 'EUR'/);
    expect(
      publisherError(NAME, () => parseBoi(bytes(text.replace('D,USD,ILS,ILS,OF00', 'D,USD,ILS,ILS,OF01')))),
    ).toMatch(/DATA_TYPE 'OF01'/);
    expect(publisherError(NAME, () => parseBoi(bytes(text.replace('RER_EUR_ILS,D,EUR', 'RER_USD_ILS,D,EUR'))))).toMatch(
      /SERIES_CODE/,
    );
    expect(publisherError(NAME, () => parseBoi(bytes(text.replace('2026-03-05,3.072', '2026-02-30,3.072'))))).toMatch(
      /not a day/,
    );
  });

  it('refuses a day whose every observation is empty', () => {
    const lines = text
      .split('\n')
      .map((line) => (line.includes(',2026-03-05,') ? line.replace(/,2026-03-05,[^,]*,/, ',2026-03-05,,') : line));
    expect(publisherError(NAME, () => parseBoi(bytes(lines.join('\n'))))).toMatch(/2026-03-05 has no quotes/);
  });
});
