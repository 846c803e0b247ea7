/**
 * A strict reader for the ECB reference-rate XML (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`).
 * The format is tiny and fixed, so instead of a general XML parser this accepts exactly: an optional XML
 * declaration, comments, elements, attributes and the five predefined entities. DOCTYPE and ENTITY declarations
 * (entity-expansion attacks), CDATA and processing instructions are refused, and the element tree must be the
 * ECB's Envelope → Cube → Cube[time] → Cube[currency, rate] shape. Everything is linear in the input size.
 */
// Why: docs/clever-parts.md#ecb-xml-reader
import { isCatalogCode } from '../domain/currencies';
import { ecbPublishedAt, isValidDay } from '../domain/dates';
import { PIVOT } from '../domain/rates';
import { SourceFormatError } from './errors';
import { CURRENCY_CODE, parseRateText, printableUpstream, type SourceDay } from './source-day';

export interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  text: string;
}

/** The ECB document is four levels deep; a little slack, then anything deeper is not its format. */
const MAX_DEPTH = 8;
const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const WHITESPACE = /^[ \t\r\n]*$/;
const ENTITY = /&([^;&<]*)(;?)/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class XmlSyntaxError extends SourceFormatError {
  constructor(message: string) {
    super(`not ECB XML: ${message}`);
  }
}

function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (_match, body: string, semicolon: string) => {
    if (semicolon !== ';') throw new XmlSyntaxError(`unterminated entity reference '&${printableUpstream(body)}'`);
    const predefined = PREDEFINED[body];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    const codePoint = numeric ? Number.parseInt(numeric[1] ?? numeric[2] ?? '', numeric[1] ? 16 : 10) : Number.NaN;
    if (!(codePoint > 0 && codePoint <= 0x10ffff)) {
      throw new XmlSyntaxError(
        `undeclared entity '&${printableUpstream(body)};' (only the predefined entities are allowed)`,
      );
    }
    return String.fromCodePoint(codePoint);
  });
}

function readName(text: string, at: number): string | undefined {
  NAME.lastIndex = at;
  return NAME.exec(text)?.[0];
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

/** Tokenizes and builds the element tree, refusing every XML feature the ECB format does not use. */
export function parseXmlDocument(input: string): XmlElement {
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  let i = 0;
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end === -1) throw new XmlSyntaxError('truncated XML declaration');
    const encoding = /encoding\s*=\s*["']([^"']*)["']/.exec(text.slice(0, end))?.[1];
    if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
      throw new XmlSyntaxError(`unsupported encoding '${printableUpstream(encoding)}'`);
    }
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const segment = text.slice(i, lt === -1 ? text.length : lt);
    const top = stack[stack.length - 1];
    if (top) top.text += decodeEntities(segment);
    else if (!WHITESPACE.test(segment))
      throw new XmlSyntaxError(`text outside the root element: '${printableUpstream(segment.trim())}'`);
    if (lt === -1) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) throw new XmlSyntaxError('truncated comment');
      i = end + 3;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      const head = text.slice(lt, lt + 9).toUpperCase();
      if (head.startsWith('<!DOCTYPE')) throw new XmlSyntaxError('DOCTYPE declarations are refused');
      if (head.startsWith('<!ENTITY')) throw new XmlSyntaxError('ENTITY declarations are refused');
      if (head.startsWith('<![CDATA[')) throw new XmlSyntaxError('CDATA sections are refused');
      throw new XmlSyntaxError('markup declarations are refused');
    }
    if (text.startsWith('<?', lt)) throw new XmlSyntaxError('processing instructions are refused');
    if (text.startsWith('</', lt)) {
      const name = readName(text, lt + 2);
      if (!name) throw new XmlSyntaxError('malformed end tag');
      let at = lt + 2 + name.length;
      while (isSpace(text[at])) at++;
      if (at >= text.length) throw new XmlSyntaxError(`truncated end tag </${printableUpstream(name)}>`);
      if (text[at] !== '>') throw new XmlSyntaxError(`malformed end tag </${printableUpstream(name)}>`);
      const open = stack.pop();
      if (!open || open.name !== name) {
        throw new XmlSyntaxError(
          `end tag </${printableUpstream(name)}> does not match <${printableUpstream(open?.name ?? '')}>`,
        );
      }
      i = at + 1;
      continue;
    }
    const name = readName(text, lt + 1);
    if (!name) throw new XmlSyntaxError(`malformed start tag at offset ${lt}`);
    if (root && stack.length === 0) throw new XmlSyntaxError('more than one root element');
    const element: XmlElement = { name, attributes: new Map(), children: [], text: '' };
    let at = lt + 1 + name.length;
    let selfClosing = false;
    for (;;) {
      const before = at;
      while (isSpace(text[at])) at++;
      if (at >= text.length) throw new XmlSyntaxError(`truncated start tag <${printableUpstream(name)}>`);
      if (text.startsWith('/>', at)) {
        selfClosing = true;
        at += 2;
        break;
      }
      if (text[at] === '>') {
        at += 1;
        break;
      }
      const attribute = readName(text, at);
      if (!attribute || at === before) throw new XmlSyntaxError(`malformed attribute in <${printableUpstream(name)}>`);
      at += attribute.length;
      while (isSpace(text[at])) at++;
      if (text[at] !== '=') throw new XmlSyntaxError(`attribute ${printableUpstream(attribute)} has no value`);
      at++;
      while (isSpace(text[at])) at++;
      const quote = text[at];
      if (quote !== '"' && quote !== "'")
        throw new XmlSyntaxError(`attribute ${printableUpstream(attribute)} is not quoted`);
      const close = text.indexOf(quote, at + 1);
      if (close === -1) throw new XmlSyntaxError(`truncated attribute ${printableUpstream(attribute)}`);
      const raw = text.slice(at + 1, close);
      if (raw.includes('<')) throw new XmlSyntaxError(`'<' in attribute ${printableUpstream(attribute)}`);
      if (element.attributes.has(attribute))
        throw new XmlSyntaxError(`duplicate attribute ${printableUpstream(attribute)}`);
      element.attributes.set(attribute, decodeEntities(raw));
      at = close + 1;
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    if (!selfClosing) {
      if (stack.length >= MAX_DEPTH) throw new XmlSyntaxError(`elements nested deeper than ${MAX_DEPTH}`);
      stack.push(element);
    }
    i = at;
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw new XmlSyntaxError(`truncated: <${printableUpstream(unclosed.name)}> is not closed`);
  if (!root) throw new XmlSyntaxError('no root element');
  return root;
}

const localName = (element: XmlElement): string => element.name.slice(element.name.indexOf(':') + 1);

function expectAttributes(element: XmlElement, names: readonly string[], where: string): void {
  const actual = [...element.attributes.keys()].filter((n) => n !== 'xmlns' && !n.startsWith('xmlns:'));
  if (actual.length !== names.length || !names.every((n) => element.attributes.has(n))) {
    throw new SourceFormatError(
      `not ECB XML: ${where} must carry exactly [${names.join(', ')}], found [${actual.map(printableUpstream).join(', ')}]`,
    );
  }
}

function expectNoText(element: XmlElement, where: string): void {
  if (!WHITESPACE.test(element.text)) {
    throw new SourceFormatError(
      `not ECB XML: unexpected text in ${where}: '${printableUpstream(element.text.trim())}'`,
    );
  }
}

/** Envelope elements the ECB puts beside the rates; their content is informational. */
const ENVELOPE_EXTRAS = new Set(['subject', 'Sender']);

/**
 * Parses an ECB reference-rate XML document into day snapshots against EUR, oldest first. Keeps catalog codes
 * only (withdrawn ones included, on the days the ECB published them). Throws SourceFormatError otherwise.
 */
export function parseEcbXml(text: string): SourceDay[] {
  const root = parseXmlDocument(text);
  if (localName(root) !== 'Envelope') {
    throw new SourceFormatError(
      `not ECB XML: expected a gesmes:Envelope root, found <${printableUpstream(root.name)}>`,
    );
  }
  expectNoText(root, 'the envelope');
  const outer = root.children.filter((child) => localName(child) === 'Cube');
  const stray = root.children.find((child) => localName(child) !== 'Cube' && !ENVELOPE_EXTRAS.has(localName(child)));
  if (stray) throw new SourceFormatError(`not ECB XML: unexpected <${printableUpstream(stray.name)}> in the envelope`);
  const [cube] = outer;
  if (!cube || outer.length > 1) throw new SourceFormatError('not ECB XML: the envelope must hold exactly one Cube');
  expectAttributes(cube, [], 'the outer Cube');
  expectNoText(cube, 'the outer Cube');
  const days: SourceDay[] = [];
  const seen = new Set<string>();
  for (const dayCube of cube.children) {
    if (dayCube.name !== 'Cube')
      throw new SourceFormatError(`not ECB XML: unexpected <${printableUpstream(dayCube.name)}>`);
    expectAttributes(dayCube, ['time'], 'a day Cube');
    expectNoText(dayCube, 'a day Cube');
    const date = dayCube.attributes.get('time') ?? '';
    if (!isValidDay(date))
      throw new SourceFormatError(`not ECB XML: time='${printableUpstream(date)}' is not a calendar day`);
    if (seen.has(date)) throw new SourceFormatError(`not ECB XML: day ${date} appears twice`);
    seen.add(date);
    const rates: Record<string, number> = { [PIVOT]: 1 };
    const codes = new Set<string>();
    for (const rateCube of dayCube.children) {
      if (rateCube.name !== 'Cube' || rateCube.children.length > 0) {
        throw new SourceFormatError(`not ECB XML: unexpected element inside day ${date}`);
      }
      expectAttributes(rateCube, ['currency', 'rate'], `a rate Cube of ${date}`);
      expectNoText(rateCube, `a rate Cube of ${date}`);
      const code = rateCube.attributes.get('currency') ?? '';
      const rateText = rateCube.attributes.get('rate') ?? '';
      if (!CURRENCY_CODE.test(code) || code === PIVOT) {
        throw new SourceFormatError(`not ECB XML: currency '${printableUpstream(code)}' on ${date}`);
      }
      if (codes.has(code)) throw new SourceFormatError(`not ECB XML: ${code} appears twice on ${date}`);
      codes.add(code);
      const rate = parseRateText(rateText);
      if (rate === undefined) {
        throw new SourceFormatError(
          `rate '${printableUpstream(rateText)}' for ${code} on ${date} is not a positive decimal`,
        );
      }
      if (isCatalogCode(code)) rates[code] = rate;
    }
    if (codes.size === 0) throw new SourceFormatError(`not ECB XML: day ${date} has no rates`);
    days.push({ source: 'ecb', date, base: PIVOT, rates, publishedAt: ecbPublishedAt(date) });
  }
  if (days.length === 0) throw new SourceFormatError('not ECB XML: the document holds no days');
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
