/**
 * Static files sent compressed when the client accepts it, as CloudFront sends them on AWS; each file is compressed
 * once per coding, on first request. The API's answers are not compressed: on AWS neither REST API sets
 * minimumCompressionSize, and CloudFront compresses nothing under the CachingDisabled policy of `/api/*`.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip' | 'identity';

export interface StaticFile {
  headers: Record<string, string>;
  body: string;
}

/** Below this size identity is preferred when accepted, as CloudFront compresses nothing under 1,000 bytes. */
export const MIN_COMPRESSED_BYTES = 1000;

/** Codings offered, in the server's order of preference among those the client rates equally. */
const LARGE_FILE_PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];
const SMALL_FILE_PREFERENCE: readonly ContentCoding[] = ['identity', 'br', 'gzip'];

/**
 * Weights per RFC 9110 12.5.3: identity not named (and no `*`) stays acceptable at the lowest weight named, so that
 * `gzip;q=0.5` still prefers gzip. `x-gzip` is gzip (RFC 9110 8.4.1.3).
 */
export function codingWeights(header: string | undefined): Record<ContentCoding, number> {
  if (header === undefined) return { identity: 1, br: 0, gzip: 0 };
  const named = new Map<string, number>();
  for (const element of header.split(',')) {
    const [rawName = '', ...parameters] = element.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match) q = Math.min(1, Number(match[1]));
    }
    const key = name === 'x-gzip' ? 'gzip' : name;
    // A coding named twice keeps its highest weight.
    named.set(key, Math.max(q, named.get(key) ?? 0));
  }
  const wildcard = named.get('*');
  const weightOf = (coding: ContentCoding): number => named.get(coding) ?? wildcard ?? 0;
  let identity = named.get('identity') ?? wildcard;
  if (identity === undefined) {
    const accepted = [...named.values()].filter((q) => q > 0);
    identity = accepted.length > 0 ? Math.min(...accepted) : 1;
  }
  return { identity, br: weightOf('br'), gzip: weightOf('gzip') };
}

/** Undefined when the client refuses every coding offered (`identity;q=0, *;q=0`). */
export function chooseCoding(header: string | undefined, size: number): ContentCoding | undefined {
  const weights = codingWeights(header);
  const preference = size < MIN_COMPRESSED_BYTES ? SMALL_FILE_PREFERENCE : LARGE_FILE_PREFERENCE;
  let chosen: ContentCoding | undefined;
  for (const coding of preference) {
    if (weights[coding] > 0 && (chosen === undefined || weights[coding] > weights[chosen])) chosen = coding;
  }
  return chosen;
}

/** Weak comparison (RFC 9110 13.1.2). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === opaque);
}

export type Compress = (coding: Exclude<ContentCoding, 'identity'>, input: Buffer) => Promise<Buffer>;

const compressors: Record<Exclude<ContentCoding, 'identity'>, (input: Buffer) => Promise<Buffer>> = {
  // The best ratio of each: a few hundred milliseconds for the largest file, spent once.
  br: (input) =>
    promisify(brotliCompress)(input, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
      },
    }),
  gzip: (input) => promisify(gzip)(input, { level: constants.Z_BEST_COMPRESSION }),
};

export const compressWithZlib: Compress = (coding, input) => compressors[coding](input);

interface Encodings {
  identity: Buffer;
  /** The identity body's digest: every coding's ETag derives from it, so a 304 needs no compression. */
  digest: string;
  compressed: Map<ContentCoding, Promise<Buffer>>;
}

export interface StaticReply {
  statusCode: number;
  headers: Record<string, string>;
  /** Empty for a 304 and a HEAD. */
  body: Buffer;
}

/**
 * Bodies are cached by file object, so a map rebuilt around the same objects keeps what was compressed. A strong
 * ETag per coding (`"<digest>-br"`): codings are different representations (RFC 9110 8.8.3), and a shared weak tag
 * would let a cache answer a br request with a 304 for its stored gzip body.
 */
export function createStaticEncoder(compress: Compress = compressWithZlib) {
  const cache = new WeakMap<StaticFile, Encodings>();

  function encodingsOf(file: StaticFile): Encodings {
    let found = cache.get(file);
    if (!found) {
      const identity = Buffer.from(file.body, 'utf8');
      const digest = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
      found = { identity, digest, compressed: new Map() };
      cache.set(file, found);
    }
    return found;
  }

  /** The file's body in `coding`, compressed on the first call only; concurrent first calls share the work. */
  function bodyIn(file: StaticFile, coding: ContentCoding): Promise<Buffer> {
    const encodings = encodingsOf(file);
    if (coding === 'identity') return Promise.resolve(encodings.identity);
    let body = encodings.compressed.get(coding);
    if (!body) {
      body = compress(coding, encodings.identity);
      encodings.compressed.set(coding, body);
    }
    return body;
  }

  function etagOf(file: StaticFile, coding: ContentCoding): string {
    const { digest } = encodingsOf(file);
    return coding === 'identity' ? `"${digest}"` : `"${digest}-${coding}"`;
  }

  /** Undefined when the client accepts no coding offered (the caller answers 406). */
  async function reply(
    file: StaticFile,
    request: { method: string; acceptEncoding: string | undefined; ifNoneMatch: string | undefined },
  ): Promise<StaticReply | undefined> {
    const coding = chooseCoding(request.acceptEncoding, encodingsOf(file).identity.length);
    if (coding === undefined) return undefined;
    const etag = etagOf(file, coding);
    const headers: Record<string, string> = { ...file.headers, ETag: etag, Vary: 'Accept-Encoding' };
    if (ifNoneMatchMatches(request.ifNoneMatch, etag)) return { statusCode: 304, headers, body: Buffer.alloc(0) };
    const body = await bodyIn(file, coding);
    if (coding !== 'identity') headers['Content-Encoding'] = coding;
    headers['Content-Length'] = String(body.length);
    return { statusCode: 200, headers, body: request.method === 'HEAD' ? Buffer.alloc(0) : body };
  }

  return { reply, bodyIn, etagOf };
}
