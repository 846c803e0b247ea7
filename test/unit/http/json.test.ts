import fc from 'fast-check';
import { RawNumber, stringifyJson } from '../../../lambdas/core/http/responses';

describe('stringifyJson', () => {
  it('splices raw decimals into the text unquoted, digit for digit', () => {
    const body = stringifyJson({ amount: new RawNumber('999999999999.999999'), converted: new RawNumber('0.000001') });
    expect(body).toBe('{"amount":999999999999.999999,"converted":0.000001}');
  });

  it('keeps decimals that no binary double can hold', () => {
    const text = '1999999999999.999998';
    const body = stringifyJson({ converted: new RawNumber(text) });
    expect(body).toBe(`{"converted":${text}}`);
    expect(JSON.stringify({ converted: Number(text) })).not.toBe(body);
  });

  it('writes raw decimals inside arrays and nested objects', () => {
    const body = stringifyJson({ data: { list: [new RawNumber('1.5'), new RawNumber('-2')], n: 3 } });
    expect(body).toBe('{"data":{"list":[1.5,-2],"n":3}}');
    expect(JSON.parse(body)).toEqual({ data: { list: [1.5, -2], n: 3 } });
  });

  it('equals JSON.stringify when no raw number is present', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('leaves strings that look like the raw marker alone', () => {
    const lookAlikes = ['\\u0000raw\\u00001.5\\u0000raw\\u0000', 'raw 1.5 raw', '"\u0000raw\u0000', '\u0000raw'];
    for (const text of lookAlikes) {
      const value = { name: text, amount: new RawNumber('2.5') };
      const body = stringifyJson(value);
      expect(JSON.parse(body)).toEqual({ name: text, amount: 2.5 });
    }
  });

  it('keeps any string intact beside a raw number (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.stringMatching(/^(0|[1-9]\d{0,11})(\.\d{1,6})?$/),
        (text, digits) => {
          const body = stringifyJson({ text, value: new RawNumber(digits), list: [text] });
          expect(JSON.parse(body)).toEqual({ text, value: Number(digits), list: [text] });
          expect(body).toContain(`"value":${digits}`);
        },
      ),
    );
  });

  it('produces valid JSON for any mix of values and raw numbers (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(
            fc.jsonValue(),
            fc.stringMatching(/^-?(0|[1-9]\d{0,5})(\.\d{1,6})?$/).map((t) => new RawNumber(t)),
          ),
        ),
        (value) => {
          expect(() => JSON.parse(stringifyJson(value))).not.toThrow();
        },
      ),
    );
  });
});

describe('RawNumber', () => {
  it('accepts plain decimals', () => {
    for (const text of ['0', '1', '-1', '0.000001', '999999999999.999999', '123.45']) {
      expect(new RawNumber(text).text).toBe(text);
    }
  });

  it('refuses anything that is not a plain decimal, so no text can be spliced into the JSON', () => {
    for (const text of [
      '',
      '1.',
      '.5',
      '1e5',
      '+1',
      '1,5',
      ' 1',
      '1 ',
      'NaN',
      'Infinity',
      '0x10',
      '1"}',
      '1,"x":2',
      '١',
    ]) {
      expect(() => new RawNumber(text)).toThrow(RangeError);
    }
  });
});

describe('stringifyJson and RawNumber against forgery', () => {
  it('leaves a string holding the raw marker, NUL characters included, unchanged', () => {
    const text = '\u0000raw\u00001.5\u0000raw\u0000';
    const body = stringifyJson({ name: text, amount: new RawNumber('2.5') });
    expect(JSON.parse(body)).toEqual({ name: text, amount: 2.5 });
  });

  it('refuses decimals with leading zeros, which are not JSON numbers', () => {
    for (const text of ['00', '01', '-01.5', '007.25']) {
      expect(() => new RawNumber(text)).toThrow(RangeError);
    }
  });
});
