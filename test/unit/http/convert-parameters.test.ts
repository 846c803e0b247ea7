import fc from 'fast-check';
import { catalogCodes, isActiveCode } from '../../../lambdas/core/domain/currencies';
import { ApiError } from '../../../lambdas/core/domain/errors';
import { readConvertInput } from '../../../lambdas/core/endpoints/convert';
import { MAX_CONVERT_TARGETS, readTargetList } from '../../../lambdas/core/http/parameters';
import { refusal } from '../../support/refusal';

const convert = (from: string, query: Record<string, unknown>) => readConvertInput({ path: { from }, query });

describe('the target list of GET /rates/convert', () => {
  it('reads codes in the order given, upper-cased', () => {
    expect(readTargetList('eur,JPY,gBp')).toEqual(['EUR', 'JPY', 'GBP']);
    expect(readTargetList('USD')).toEqual(['USD']);
  });

  it('names the position of an empty item', () => {
    expect(refusal(() => readTargetList(''))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
      message: "Item 1 of the parameter 'to' is empty.",
    });
    expect(refusal(() => readTargetList('EUR,JPY,')).message).toBe("Item 3 of the parameter 'to' is empty.");
    expect(refusal(() => readTargetList(',EUR')).message).toBe("Item 1 of the parameter 'to' is empty.");
  });

  it('names a duplicate after upper-casing, with both positions', () => {
    expect(refusal(() => readTargetList('usd,EUR,USD'))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
      message: "Currency 'USD' is listed twice in the parameter 'to' (items 1 and 3).",
    });
  });

  it('names the first unsupported code with 422 when nothing is malformed', () => {
    expect(refusal(() => readTargetList('EUR,XYZ,ABC'))).toEqual({
      status: 422,
      code: 'unsupported-currency',
      param: 'to',
      message: "Currency 'XYZ' is not supported.",
    });
    // Withdrawn codes have no rate today.
    expect(refusal(() => readTargetList('DEM')).code).toBe('unsupported-currency');
  });

  it('puts any malformed item before an unsupported one, whichever comes first', () => {
    expect(refusal(() => readTargetList('XYZ,EUR,,JPY')).message).toBe("Item 3 of the parameter 'to' is empty.");
    expect(refusal(() => readTargetList('XYZ,EUR,eur')).status).toBe(400);
  });

  it(`takes ${MAX_CONVERT_TARGETS} distinct codes and refuses one more, counting before judging codes`, () => {
    const active = catalogCodes().filter(isActiveCode);
    const fifty = active.slice(0, MAX_CONVERT_TARGETS);
    expect(readTargetList(fifty.join(','))).toEqual(fifty);
    expect(refusal(() => readTargetList(active.slice(0, MAX_CONVERT_TARGETS + 1).join(',')))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
      message: `The parameter 'to' lists ${MAX_CONVERT_TARGETS + 1} currencies; at most ${MAX_CONVERT_TARGETS} are allowed.`,
    });
  });

  it('never throws anything but a contract error, for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        try {
          const codes = readTargetList(text);
          expect(new Set(codes).size).toBe(codes.length);
          expect(codes.length).toBeGreaterThan(0);
          expect(codes.length).toBeLessThanOrEqual(MAX_CONVERT_TARGETS);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect(['invalid-parameter', 'unsupported-currency']).toContain((error as ApiError).code);
          expect((error as ApiError).param).toBe('to');
        }
      }),
      { seed: 20261123, numRuns: 500 },
    );
  });
});

describe('the parameters of GET /rates/convert read together', () => {
  it('reads from, the list and an optional amount', () => {
    expect(convert('usd', { to: 'EUR,JPY' })).toEqual({ from: 'USD', to: ['EUR', 'JPY'] });
    expect(convert('USD', { to: 'EUR', amount: '250.50' })).toEqual({ from: 'USD', to: ['EUR'], amount: '250.5' });
  });

  it("refuses a missing 'to' as required", () => {
    expect(refusal(() => convert('USD', {}))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
      message: "The parameter 'to' is required.",
    });
  });

  it('refuses a list longer than 512 characters before splitting it, and keeps other values at 64', () => {
    expect(refusal(() => convert('USD', { to: 'A'.repeat(513) })).message).toBe("The parameter 'to' is too long.");
    expect(refusal(() => convert('USD', { to: 'EUR', amount: '1'.repeat(65) })).message).toBe(
      "The parameter 'amount' is too long.",
    );
  });

  it('lets a malformed list or amount outrank an unsupported base', () => {
    expect(refusal(() => convert('XYZ', { to: 'EUR,' })).param).toBe('to');
    expect(refusal(() => convert('XYZ', { to: 'EUR', amount: '0' }))).toMatchObject({
      status: 400,
      code: 'invalid-amount',
    });
    expect(refusal(() => convert('XYZ', { to: 'EUR' }))).toMatchObject({ status: 422, param: 'from' });
  });
});
