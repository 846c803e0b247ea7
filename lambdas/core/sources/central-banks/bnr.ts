/**
 * Banca Națională a României: reference rates in RON, one XML file per calendar year. A `multiplier` attribute
 * (100 for HUF, IDR, ISK, JPY, KRW) says how many units the rate is for; gold (XAU) and the SDR are listed like
 * currencies and kept, for the merge to filter.
 */
import type { XmlElement } from '../ecb-xml';
import { DayCollector, decimalText, decodeBody, isoCode, isoDay, readXml, show, unitsText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const BNR_PUBLISHER = adapterFacts('bnr');

export const BNR_BASE_URL = 'https://curs.bnr.ro';
const NAME = BNR_PUBLISHER.name;

/** One whole-year file per calendar year the range touches; the caller keeps the days it asked for. */
export function bnrRequests(from: string, to: string, base = BNR_BASE_URL): string[] {
  const uris: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    uris.push(`${base}/files/xml/years/nbrfxrates${year}.xml`);
  }
  return uris;
}

const fail = (what: string): never => {
  throw new PublisherFormatError(NAME, what);
};

function only(parent: XmlElement, name: string, where: string): XmlElement {
  const found = parent.children.filter((c) => c.name === name);
  return found.length === 1 && found[0] ? found[0] : fail(`${where} must hold exactly one <${name}>`);
}

export function parseBnr(body: Uint8Array): OfficialDay[] {
  const root = readXml(decodeBody(body, NAME), NAME);
  if (root.name !== 'DataSet') fail(`expected a DataSet root, found <${show(root.name)}>`);
  const data = only(root, 'Body', 'the DataSet');
  if (only(data, 'OrigCurrency', 'the Body').text.trim() !== 'RON') fail('OrigCurrency is not RON');
  const collector = new DayCollector(BNR_PUBLISHER);
  for (const cube of data.children) {
    if (cube.name === 'Subject' || cube.name === 'OrigCurrency') continue;
    if (cube.name !== 'Cube') fail(`unexpected <${show(cube.name)}> in the Body`);
    const date = isoDay(cube.attributes.get('date'), NAME, 'a Cube date');
    if (collector.has(date)) fail(`${date} appears twice`);
    collector.day(date);
    for (const rate of cube.children) {
      if (rate.name !== 'Rate' || rate.children.length > 0) fail(`unexpected <${show(rate.name)}> on ${date}`);
      const code = isoCode(rate.attributes.get('currency'), NAME, `a Rate on ${date}`);
      const what = `${code} on ${date}`;
      const multiplier = rate.attributes.get('multiplier');
      const amount = multiplier === undefined ? '1' : unitsText(multiplier, NAME, what);
      collector.add(date, code, { amount, price: decimalText(NAME, rate.text, what) });
    }
  }
  return collector.finish();
}

export const BNR: CentralBankAdapter = {
  id: 'bnr',
  requests: bnrRequests,
  parse: parseEach(parseBnr),
};
