import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../lib/bundling';
import { type Parse, type ParseContext, rememberingParse } from '../../../local-server/expression-cache';

type Values = Record<string, Record<string, unknown>>;
type Context = ParseContext & { unusedAttrNames: Record<string, boolean>; unusedAttrVals: Record<string, boolean> };

const fromDynalite = createRequire(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('dynalite'));
/** dynalite's own parsers, as its validations call them (before the local server installs the cache). */
const parsers = {
  update: (fromDynalite('./db/updateParser') as { parse: Parse }).parse,
  condition: (fromDynalite('./db/conditionParser') as { parse: Parse }).parse,
  projection: (fromDynalite('./db/projectionParser') as { parse: Parse }).parse,
};
const db = fromDynalite('./db') as { compare: (op: string, a: unknown, b: unknown) => boolean };

/** A context as dynalite's validateExpressions makes it: every name and value unused. */
function context(names: Record<string, string>, values: Values): Context {
  return {
    attrNames: names,
    attrVals: values,
    unusedAttrNames: Object.fromEntries(Object.keys(names).map((name) => [name, true])),
    unusedAttrVals: Object.fromEntries(Object.keys(values).map((name) => [name, true])),
    isReserved: () => false,
    compare: db.compare,
  };
}

const admissionNames = { '#m': 'm_7', '#d': 'd_3', '#x': 'expires_at', '#r': 'r4', '#old': 'm_5' };
const admissionValues = (slot: string): Values => ({
  ':one': { N: '1' },
  ':ml': { N: '600' },
  ':x': { N: '1790000000' },
  ':r': { S: slot },
});
const UPDATE = 'ADD #m :one, #d :one SET #x = :x, #r = :r REMOVE #old';
const CONDITION = 'NOT #m >= :ml AND NOT #r = :r';

describe('remembered expression parses', () => {
  it("gives what dynalite's parser gives, with each request's own values, and parses a repeated expression once", () => {
    for (const [kind, expression] of [
      ['update', UPDATE],
      ['condition', CONDITION],
    ] as const) {
      const original = parsers[kind];
      let calls = 0;
      const remembering = rememberingParse((expr, options) => {
        calls++;
        return original(expr, options);
      });
      for (const slot of ['first', 'second', 'third']) {
        const values = admissionValues(slot);
        const mine = context(admissionNames, values);
        const theirs = context(admissionNames, admissionValues(slot));
        const result = remembering(expression, { context: mine });
        expect(result).toEqual(original(expression, { context: theirs }));
        expect(mine.unusedAttrNames).toEqual(theirs.unusedAttrNames);
        expect(mine.unusedAttrVals).toEqual(theirs.unusedAttrVals);
        // The request's own value objects, not copies of the first request's.
        expect(JSON.stringify(result)).toContain(slot);
      }
      expect(calls).toBe(1);
      expect(remembering.entries()).toBe(1);
    }
  });

  it('marks the names and values an expression uses whatever an earlier expression of the request used', () => {
    const remembering = rememberingParse(parsers.condition);
    const first = context(admissionNames, admissionValues('a'));
    delete first.unusedAttrVals[':r'];
    remembering(CONDITION, { context: first });
    const second = context(admissionNames, admissionValues('b'));
    remembering(CONDITION, { context: second });
    expect(second.unusedAttrVals).toEqual({ ':one': true, ':x': true });
    expect(second.unusedAttrNames).toEqual({ '#d': true, '#x': true, '#old': true });
  });

  it('parses again when the names or the types of the values differ, so type errors stay exact', () => {
    const remembering = rememberingParse(parsers.update);
    const numbers = context({ '#a': 'a' }, { ':v': { N: '1' }, ':w': { N: '2' } });
    expect(typeof remembering('SET #a = :v + :w', { context: numbers })).toBe('object');
    const text = context({ '#a': 'a' }, { ':v': { S: 'x' }, ':w': { N: '2' } });
    expect(remembering('SET #a = :v + :w', { context: text })).toBe(
      parsers.update('SET #a = :v + :w', { context: context({ '#a': 'a' }, { ':v': { S: 'x' }, ':w': { N: '2' } }) }),
    );
    expect(remembering('SET #a = :v + :w', { context: text })).toMatch(/Incorrect operand type/);
    const renamed = context({ '#a': 'b' }, { ':v': { N: '1' }, ':w': { N: '2' } });
    expect(JSON.stringify(remembering('SET #a = :v + :w', { context: renamed }))).toContain('"b"');
    expect(remembering.entries()).toBe(3);
  });

  it('parses BETWEEN every time, since it compares the values themselves', () => {
    let calls = 0;
    const remembering = rememberingParse((expr, options) => {
      calls++;
      return parsers.condition(expr, options);
    });
    const between = '#a BETWEEN :lo AND :hi';
    expect(
      typeof remembering(between, { context: context({ '#a': 'a' }, { ':lo': { N: '1' }, ':hi': { N: '2' } }) }),
    ).toBe('object');
    expect(remembering(between, { context: context({ '#a': 'a' }, { ':lo': { N: '3' }, ':hi': { N: '2' } }) })).toMatch(
      /BETWEEN operator requires upper bound/,
    );
    expect(calls).toBe(2);
    expect(remembering.entries()).toBe(0);
  });

  it('remembers projections and refusals alike', () => {
    const projection = rememberingParse(parsers.projection);
    const names = { '#p': 'pk', '#n': 'n' };
    const first = projection('#p, #n', { context: context(names, {}) });
    expect(projection('#p, #n', { context: context(names, {}) })).toEqual(first);
    expect(projection('#p, #n', { context: context(names, {}) })).not.toBe(first);
    const condition = rememberingParse(parsers.condition);
    const refused = condition('#a = :missing', { context: context({ '#a': 'a' }, { ':v': { N: '1' } }) });
    expect(refused).toMatch(/attribute value used in expression is not defined/);
    expect(condition('#a = :missing', { context: context({ '#a': 'a' }, { ':v': { N: '1' } }) })).toBe(refused);
  });
});
