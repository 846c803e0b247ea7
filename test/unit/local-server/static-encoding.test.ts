import { brotliDecompressSync } from 'node:zlib';
import {
  type Compress,
  chooseCoding,
  codingWeights,
  compressWithZlib,
  createStaticEncoder,
  ifNoneMatchMatches,
  MIN_COMPRESSED_BYTES,
  type StaticFile,
} from '../../../local-server/static-encoding';

const LARGE = MIN_COMPRESSED_BYTES;
const SMALL = MIN_COMPRESSED_BYTES - 1;

describe('Accept-Encoding weights', () => {
  it.each([
    [undefined, { identity: 1, br: 0, gzip: 0 }],
    ['', { identity: 1, br: 0, gzip: 0 }],
    ['gzip', { identity: 1, br: 0, gzip: 1 }],
    ['gzip;q=0.5', { identity: 0.5, br: 0, gzip: 0.5 }],
    ['br;q=0.8, gzip;q=0.3', { identity: 0.3, br: 0.8, gzip: 0.3 }],
    ['*;q=0.4', { identity: 0.4, br: 0.4, gzip: 0.4 }],
    ['*;q=0, identity', { identity: 1, br: 0, gzip: 0 }],
    ['gzip;q=0, gzip;q=0.7', { identity: 0.7, br: 0, gzip: 0.7 }],
    ['X-GZIP ; Q=0.9', { identity: 0.9, br: 0, gzip: 0.9 }],
    ['br;q=1.000, gzip;q=0.001', { identity: 0.001, br: 1, gzip: 0.001 }],
  ])('reads %j as %j', (header, weights) => {
    expect(codingWeights(header)).toEqual(weights);
  });
});

describe('the coding chosen', () => {
  it.each([
    [undefined, LARGE, 'identity'],
    ['gzip, deflate, br, zstd', LARGE, 'br'],
    ['gzip, deflate, br, zstd', SMALL, 'identity'],
    ['gzip, identity;q=0', SMALL, 'gzip'],
    ['br;q=0.9, gzip', LARGE, 'gzip'],
    ['gzip;q=0.5', LARGE, 'gzip'],
    ['identity;q=0.5, gzip;q=0.4', LARGE, 'identity'],
    ['identity;q=0, *;q=0', LARGE, undefined],
    ['identity;q=0', LARGE, undefined],
  ])('for %j and %d bytes is %s', (header, size, coding) => {
    expect(chooseCoding(header, size)).toBe(coding);
  });
});

describe('If-None-Match', () => {
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"abc-gzip"', false],
    ['*', true],
    ['"ab"', false],
  ])('%j matches "abc": %s', (header, matches) => {
    expect(ifNoneMatchMatches(header, '"abc"')).toBe(matches);
  });
});

describe('the static encoder', () => {
  const file = (): StaticFile => ({ headers: { 'Content-Type': 'text/plain' }, body: 'fxrates '.repeat(500) });

  /** zlib itself, with a record of each call. */
  const counted = () => {
    const calls: string[] = [];
    const compress: Compress = (coding, input) => {
      calls.push(coding);
      return compressWithZlib(coding, input);
    };
    return { calls, compress };
  };

  it('compresses a file once per coding, however many requests ask for it at once', async () => {
    const { calls, compress } = counted();
    const encoder = createStaticEncoder(compress);
    const page = file();
    const bodies = await Promise.all([1, 2, 3].map(() => encoder.bodyIn(page, 'br')));
    const later = await encoder.bodyIn(page, 'br');
    await encoder.bodyIn(page, 'gzip');
    await encoder.reply(page, { method: 'GET', acceptEncoding: 'gzip', ifNoneMatch: undefined });
    expect(calls).toEqual(['br', 'gzip']);
    for (const body of [...bodies, later]) expect(body).toBe(bodies[0]);
    expect(brotliDecompressSync(later).toString('utf8')).toBe(page.body);
  });

  it('answers 304 from the tag alone, without compressing, and tags each coding apart', async () => {
    const { calls, compress } = counted();
    const encoder = createStaticEncoder(compress);
    const page = file();
    const tags = (['identity', 'gzip', 'br'] as const).map((coding) => encoder.etagOf(page, coding));
    expect(new Set(tags).size).toBe(3);
    const reply = await encoder.reply(page, { method: 'GET', acceptEncoding: 'gzip', ifNoneMatch: tags[1] });
    expect([reply?.statusCode, reply?.body.length]).toEqual([304, 0]);
    expect(calls).toEqual([]);
  });

  it('tags the same text the same way in another encoder, and changed text differently', () => {
    const page = file();
    expect(createStaticEncoder().etagOf(page, 'br')).toBe(createStaticEncoder().etagOf(file(), 'br'));
    expect(createStaticEncoder().etagOf({ ...page, body: `${page.body}!` }, 'br')).not.toBe(
      createStaticEncoder().etagOf(page, 'br'),
    );
  });
});
