import { isCatalogCode } from '../../../lambdas/core/domain/currencies';
import { ecbPublishedAt } from '../../../lambdas/core/domain/dates';
import { parseEcbXml, parseXmlDocument } from '../../../lambdas/core/sources/ecb-xml';
import { SourceFormatError } from '../../../lambdas/core/sources/errors';
import { ecbXml, HOSTILE, last90Rows, readEcbTable } from '../../support/upstream-server';

const table = readEcbTable();
const newest = table.rows[0];
const daily = ecbXml(table, table.rows.slice(0, 1));

function expectedRates(row: { values: string[] }): Record<string, number> {
  const rates: Record<string, number> = { EUR: 1 };
  table.codes.forEach((code, i) => {
    const value = row.values[i];
    if (value && value !== 'N/A' && isCatalogCode(code)) rates[code] = Number(value);
  });
  return rates;
}

function rejects(text: string, pattern?: RegExp): void {
  let caught: unknown;
  try {
    parseEcbXml(text);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SourceFormatError);
  if (pattern) expect((caught as Error).message).toMatch(pattern);
}

describe('parseEcbXml on the real data', () => {
  it('reads the daily file into one EUR snapshot with every quoted currency', () => {
    const [day, ...rest] = parseEcbXml(daily);
    expect(rest).toHaveLength(0);
    expect(day?.date).toBe(newest?.date);
    expect(day?.source).toBe('ecb');
    expect(day?.base).toBe('EUR');
    expect(day?.rates).toEqual(expectedRates(newest ?? { values: [] }));
    expect(day?.publishedAt).toBe(ecbPublishedAt(newest?.date ?? ''));
  });

  it('reads the 90-day file oldest first, one snapshot per business day', () => {
    const rows = last90Rows(table);
    const days = parseEcbXml(ecbXml(table, rows));
    expect(days.map((d) => d.date)).toEqual(rows.map((r) => r.date).reverse());
    expect(days[days.length - 1]?.rates).toEqual(expectedRates(rows[0] ?? { values: [] }));
  });

  it('keeps withdrawn currencies on the days the ECB quoted them and leaves N/A out', () => {
    const rows = table.rows.filter((r) => r.date === '2007-12-31' || r.date === '2008-01-02');
    const [last, first] = [rows[0], rows[1]];
    const days = parseEcbXml(ecbXml(table, rows));
    expect(days[0]?.rates.CYP).toBe(Number(first?.values[table.codes.indexOf('CYP')]));
    expect(days[1]?.rates.CYP).toBeUndefined();
    expect(last?.values[table.codes.indexOf('CYP')]).toBe('N/A');
  });

  it('dates publication at 16:00 Berlin time: 15:00 UTC in winter, 14:00 UTC in summer', () => {
    const winter = table.rows.find((r) => r.date === '2026-01-15');
    const summer = table.rows.find((r) => r.date === '2025-07-15');
    const days = parseEcbXml(
      ecbXml(
        table,
        [summer, winter].flatMap((r) => (r ? [r] : [])),
      ),
    );
    expect(days.map((d) => d.publishedAt)).toEqual(['2025-07-15T14:00:00Z', '2026-01-15T15:00:00Z']);
  });

  it('drops currencies outside the catalog but still requires them to be well-formed', () => {
    const withUnknown = daily.replace(
      "<Cube currency='USD'",
      "<Cube currency='XQQ' rate='2.5'/>\n<Cube currency='USD'",
    );
    const [day] = parseEcbXml(withUnknown);
    expect(day?.rates.XQQ).toBeUndefined();
    expect(day?.rates.USD).toBe(Number(newest?.values[table.codes.indexOf('USD')]));
    rejects(daily.replace("<Cube currency='USD'", "<Cube currency='usd!' rate='2.5'/>\n<Cube currency='USD'"));
  });

  it('accepts comments, either quote style and the predefined entities', () => {
    const variant = daily
      .replace('<gesmes:subject>Reference rates</gesmes:subject>', '<gesmes:subject>Rates &amp; more</gesmes:subject>')
      .replace("<Cube time='", '<!-- a comment --><Cube time="')
      .replace(/(<Cube time="\d{4}-\d{2}-\d{2})'/, '$1"');
    expect(parseEcbXml(variant)[0]?.rates).toEqual(parseEcbXml(daily)[0]?.rates);
  });
});

describe('parseEcbXml on hostile input', () => {
  it('refuses entity-expansion XML without expanding anything', () => {
    rejects(HOSTILE.entityExpansion, /DOCTYPE/);
  });

  it('refuses a bare ENTITY declaration, CDATA and processing instructions', () => {
    rejects(`<!ENTITY x "y">${daily}`, /ENTITY/);
    rejects(daily.replace('<Cube>', '<Cube><![CDATA[x]]>'), /CDATA/);
    rejects(daily.replace('<Cube>', '<Cube><?php echo 1 ?>'), /processing instructions/);
  });

  it('refuses undeclared entity references and unterminated ones', () => {
    rejects(daily.replace("rate='", "rate='&lol;"), /undeclared entity/);
    rejects(daily.replace('Reference rates', 'Reference & rates'), /entity/);
  });

  it('refuses an HTML error page in place of the XML', () => {
    rejects(HOSTILE.htmlErrorPage, /DOCTYPE/);
    rejects(HOSTILE.htmlWithoutDoctype, /Envelope/);
  });

  it('refuses every truncation of the daily file', () => {
    for (let cut = 0; cut < daily.trimEnd().length; cut += 7) rejects(daily.slice(0, cut));
  });

  it('refuses non-numeric, negative, zero, exponent and empty rates', () => {
    const usd = newest?.values[table.codes.indexOf('USD')] ?? '';
    for (const bad of ['abc', '-1.2', '0', '0.0', '1e3', '', ' 1.2', '0x10', 'NaN', 'Infinity', '1,2']) {
      rejects(daily.replace(`rate='${usd}'`, `rate='${bad}'`), /not a positive decimal/);
    }
  });

  it('refuses anything outside the Envelope/Cube structure', () => {
    rejects(daily.replace('<Cube>', '<Cube><Extra/>'));
    rejects(daily.replace("<Cube time='", "<Cube foo='1' time='"), /exactly/);
    rejects(daily.replace('</gesmes:Envelope>', '<Cube/></gesmes:Envelope>'), /exactly one Cube/);
    rejects(daily.replace('</gesmes:Envelope>', '</gesmes:Envelope><again/>'), /more than one root/);
    rejects(daily.replace(/<Cube time='[^']*'>[\s\S]*<\/Cube>\n\t<\/Cube>/, '</Cube>'), /no days/);
    rejects(daily.replace("<Cube time='", "<Cube time='2026-02-30' x='"));
  });

  it('refuses a day or a currency given twice', () => {
    const day = /\t\t<Cube time='[\s\S]*?\t\t<\/Cube>/.exec(daily)?.[0] ?? '';
    rejects(daily.replace(day, `${day}\n${day}`), /twice/);
    rejects(daily.replace("<Cube currency='USD'", "<Cube currency='USD' rate='1.1'/><Cube currency='USD'"), /twice/);
  });

  it('refuses JSON, plain text and empty bodies', () => {
    rejects('{"date":"2026-04-13"}', /outside the root/);
    rejects('Service Unavailable', /outside the root/);
    rejects('', /no root/);
  });

  it('stays linear on pathological input: deep nesting and an endless attribute', () => {
    const started = Date.now();
    rejects('<a>'.repeat(200_000), /deeper/);
    rejects(`<gesmes:Envelope><Cube time='${'x'.repeat(2_000_000)}`, /truncated/);
    rejects(`<gesmes:Envelope>${'<!--'.repeat(100_000)}`, /truncated comment/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('builds the element tree of a well-formed document', () => {
    const root = parseXmlDocument("<?xml version='1.0' encoding='UTF-8'?><a x='1'><b>t&lt;</b><c/></a>");
    expect(root.name).toBe('a');
    expect(root.attributes.get('x')).toBe('1');
    expect(root.children.map((c) => [c.name, c.text])).toEqual([
      ['b', 't<'],
      ['c', ''],
    ]);
  });

  it('refuses an encoding other than UTF-8', () => {
    expect(() => parseXmlDocument("<?xml version='1.0' encoding='UTF-16'?><a/>")).toThrow(/encoding/);
  });
});
