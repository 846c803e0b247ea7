/**
 * A stand-in for the upstream sources on 127.0.0.1 (ephemeral port), serving the bundled real data in the
 * sources' real formats: ECB daily and 90-day XML generated from the real history, the real history zip, the
 * real currency-api day files under both the jsDelivr-style and the fallback URL layout, and the twelve central
 * banks' recorded answers at their own paths (their dates aside: see `centralBankShape`). Any path can be
 * overridden with a broken variant (status, body, a body that never ends, a slow response).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { SourceUrls } from '../../lambdas/core/ingest/fetchers';

export const DATA_DIR = join(__dirname, '..', '..', 'data');

/** The real history CSV, read without the code under test: header codes and rows, newest first. */
export interface EcbTable {
  codes: string[];
  rows: { date: string; values: string[] }[];
}

export function readEcbTable(dataDir = DATA_DIR): EcbTable {
  const zip = unzipSync(readFileSync(join(dataDir, 'ecb', 'eurofxref-hist.zip')));
  const csv = new TextDecoder().decode(zip['eurofxref-hist.csv']);
  const [header = '', ...lines] = csv.trim().split(/\r?\n/);
  const codes = header.split(',').slice(1).filter(Boolean);
  const rows = lines.map((line) => {
    const [date = '', ...values] = line.split(',');
    return { date, values: values.slice(0, codes.length) };
  });
  return { codes, rows };
}

const shift = (date: string, days: number) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

export function shiftEcbTable(table: EcbTable, days: number): EcbTable {
  return { codes: table.codes, rows: table.rows.map((r) => ({ date: shift(r.date, days), values: r.values })) };
}

/** The ECB XML layout (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`) for the given rows. */
export function ecbXml(table: EcbTable, rows = table.rows): string {
  const days = rows.map((row) => {
    const cubes = table.codes
      .map((code, i) => ({ code, rate: row.values[i] }))
      .filter((c) => c.rate && c.rate !== 'N/A')
      .map((c) => `\t\t\t<Cube currency='${c.code}' rate='${c.rate}'/>`);
    return [`\t\t<Cube time='${row.date}'>`, ...cubes, '\t\t</Cube>'].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    '\t<gesmes:subject>Reference rates</gesmes:subject>',
    '\t<gesmes:Sender>',
    '\t\t<gesmes:name>European Central Bank</gesmes:name>',
    '\t</gesmes:Sender>',
    '\t<Cube>',
    ...days,
    '\t</Cube>',
    '</gesmes:Envelope>',
    '',
  ].join('\n');
}

export function ecbCsv(table: EcbTable, rows = table.rows): string {
  const lines = [`Date,${table.codes.join(',')},`, ...rows.map((r) => `${r.date},${r.values.join(',')},`)];
  return `${lines.join('\n')}\n`;
}

export function ecbZip(table: EcbTable, rows = table.rows): Uint8Array {
  return zipSync({ 'eurofxref-hist.csv': strToU8(ecbCsv(table, rows)) });
}

/** Rows of the 90-day file: the newest row and every row within 90 calendar days before it. */
export function last90Rows(table: EcbTable): EcbTable['rows'] {
  const newest = table.rows[0]?.date ?? '';
  const cutoff = shift(newest, -90);
  return table.rows.filter((r) => r.date > cutoff);
}

export function readCurrencyApiDays(dataDir = DATA_DIR): Map<string, string> {
  const dir = join(dataDir, 'currency-api');
  const days = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const match = /^eur-(\d{4}-\d{2}-\d{2})\.min\.json$/.exec(name);
    if (match?.[1]) days.set(match[1], readFileSync(join(dir, name), 'utf8'));
  }
  return days;
}

/** Hostile and broken bodies every parser must refuse with a typed error. */
export const HOSTILE = {
  entityExpansion: [
    '<?xml version="1.0"?>',
    '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">',
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>',
    "<gesmes:Envelope><Cube><Cube time='2026-04-13'><Cube currency='USD' rate='&lol3;'/></Cube></Cube></gesmes:Envelope>",
  ].join('\n'),
  htmlErrorPage:
    '<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>\n',
  htmlWithoutDoctype: '<html><body><p>Maintenance</p></body></html>',
};

/**
 * A central-bank request with its numbers (dates, years) blanked: a request for other days than the recorded ones
 * is answered with the recorded body of the same kind (table, report, currency), as if those were its days.
 */
export const centralBankShape = (pathAndQuery: string): string => decodeURIComponent(pathAndQuery).replace(/\d+/g, '#');
const pathShape = (pathAndQuery: string): string => centralBankShape(pathAndQuery.split('?')[0] ?? '');

/** Every recorded central-bank answer, by the shape of its request and by the shape of its path alone. */
export function readCentralBankAnswers(dataDir = DATA_DIR): {
  byShape: Map<string, Uint8Array>;
  byPath: Map<string, Uint8Array>;
} {
  const root = join(dataDir, 'central-banks');
  const byShape = new Map<string, Uint8Array>();
  const byPath = new Map<string, Uint8Array>();
  for (const id of readdirSync(root).sort()) {
    const facts = JSON.parse(readFileSync(join(root, id, 'source.json'), 'utf8')) as {
      recorded: { file: string; uri: string }[];
    };
    for (const { file, uri } of facts.recorded) {
      const url = new URL(uri);
      const body = new Uint8Array(readFileSync(join(root, id, file)));
      const key = url.pathname + url.search;
      if (!byShape.has(centralBankShape(key))) byShape.set(centralBankShape(key), body);
      if (!byPath.has(pathShape(key))) byPath.set(pathShape(key), body);
    }
  }
  return { byShape, byPath };
}

export type Behaviour =
  | { status: number; body?: string }
  | { body: string | Uint8Array; contentType?: string }
  /** Headers and a first chunk, then nothing, forever. */
  | { stall: true }
  /** One byte every few milliseconds, forever: only a total timeout ends it. */
  | { trickle: true }
  /** Chunks as fast as the socket takes them, forever: only a size cap ends it. */
  | { flood: true }
  /** Waits before answering normally. */
  | { delayMs: number };

export interface UpstreamOptions {
  /** Moves every ECB day by this many days (a multiple of 7 keeps weekdays), to line ECB up with currency-api. */
  ecbShiftDays?: number;
  /** Serve ECB as if it were this day: rows after it are left out. */
  ecbUntil?: string;
  /** Serve currency-api as if it were this day: `latest` is this day, later days 404. */
  currencyApiUntil?: string;
  dataDir?: string;
}

export interface UpstreamServer {
  origin: string;
  urls: SourceUrls;
  /** Paths requested so far, in order. */
  requests: string[];
  configure(options: UpstreamOptions): void;
  override(path: string, behaviour: Behaviour): void;
  /** Overrides every request whose path and query match (central-bank requests carry their dates in either). */
  overrideMatching(pattern: RegExp, behaviour: Behaviour): void;
  reset(): void;
  ecbPath(file: 'eurofxref-daily.xml' | 'eurofxref-hist-90d.xml' | 'eurofxref-hist.zip'): string;
  currencyApiPath(tag: string): string;
  fallbackPath(tag: string): string;
  /** The currency-api JSON served for a day, for tests that serve a modified copy. */
  currencyApiBody(date: string): string | undefined;
  close(): Promise<void>;
}

interface Content {
  daily: string;
  last90: string;
  zip: Uint8Array;
  currencyApi: Map<string, string>;
  latest: string | undefined;
}

export async function startUpstreamServer(initial: UpstreamOptions = {}): Promise<UpstreamServer> {
  const baseTable = readEcbTable(initial.dataDir);
  const realZip = readFileSync(join(initial.dataDir ?? DATA_DIR, 'ecb', 'eurofxref-hist.zip'));
  const allCurrencyApi = readCurrencyApiDays(initial.dataDir);
  const centralBanks = readCentralBankAnswers(initial.dataDir);
  let content: Content;
  const build = (options: UpstreamOptions) => {
    let table = options.ecbShiftDays ? shiftEcbTable(baseTable, options.ecbShiftDays) : baseTable;
    if (options.ecbUntil) {
      const until = options.ecbUntil;
      table = { codes: table.codes, rows: table.rows.filter((r) => r.date <= until) };
    }
    const pristine = table === baseTable;
    const currencyApi = new Map(
      [...allCurrencyApi].filter(([d]) => !options.currencyApiUntil || d <= options.currencyApiUntil),
    );
    content = {
      daily: ecbXml(table, table.rows.slice(0, 1)),
      last90: ecbXml(table, last90Rows(table)),
      zip: pristine ? realZip : ecbZip(table),
      currencyApi,
      latest: [...currencyApi.keys()].pop(),
    };
  };
  build(initial);
  const overrides = new Map<string, Behaviour>();
  const patterns: { pattern: RegExp; behaviour: Behaviour }[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: string | Uint8Array, type: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const forever = (res: ServerResponse, everyMs: number, chunk: string) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write('<?xml version="1.0"?>\n<gesmes:Envelope>');
    if (everyMs < 0) return;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        return;
      }
      res.write(chunk);
    }, everyMs);
    timers.add(timer);
  };
  const serveReal = (path: string, res: ServerResponse, query = '') => {
    const answer = centralBanks.byShape.get(centralBankShape(path + query)) ?? centralBanks.byPath.get(pathShape(path));
    if (answer) return send(res, 200, answer, 'application/octet-stream');
    const ecb = /^\/ecb\/(eurofxref-daily\.xml|eurofxref-hist-90d\.xml|eurofxref-hist\.zip)$/.exec(path)?.[1];
    if (ecb === 'eurofxref-daily.xml') return send(res, 200, content.daily, 'text/xml');
    if (ecb === 'eurofxref-hist-90d.xml') return send(res, 200, content.last90, 'text/xml');
    if (ecb === 'eurofxref-hist.zip') return send(res, 200, content.zip, 'application/zip');
    const tag =
      /^\/npm\/@fawazahmed0\/currency-api@([^/]+)\/v1\/currencies\/eur\.min\.json$/.exec(path)?.[1] ??
      /^\/fallback\/([^/]+)\/v1\/currencies\/eur\.min\.json$/.exec(path)?.[1];
    const date = tag === 'latest' ? content.latest : tag;
    const body = date ? content.currencyApi.get(date) : undefined;
    if (body) return send(res, 200, body, 'application/json');
    return send(res, 404, 'Not Found', 'text/plain');
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const path = url.pathname;
    requests.push(path);
    const behaviour =
      overrides.get(path) ??
      patterns.find(({ pattern }) => pattern.test(decodeURIComponent(path + url.search)))?.behaviour;
    if (!behaviour) return serveReal(path, res, url.search);
    if ('delayMs' in behaviour) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) serveReal(path, res, url.search);
      }, behaviour.delayMs);
      timers.add(timer);
      return;
    }
    if ('stall' in behaviour) return forever(res, -1, '');
    if ('trickle' in behaviour) return forever(res, 20, ' ');
    if ('flood' in behaviour) return forever(res, 1, `<Cube>${'x'.repeat(64 * 1024)}</Cube>`);
    if ('status' in behaviour) return send(res, behaviour.status, behaviour.body ?? '', 'text/html');
    return send(res, 200, behaviour.body, behaviour.contentType ?? 'application/octet-stream');
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: {
      ecbBaseUrl: `${origin}/ecb`,
      currencyApiBaseUrl: `${origin}/npm`,
      currencyApiFallbackUrl: `${origin}/fallback/{date}/v1/currencies/eur.min.json`,
      centralBankOrigin: origin,
    },
    requests,
    configure: build,
    override: (path, behaviour) => overrides.set(path, behaviour),
    overrideMatching: (pattern, behaviour) => patterns.push({ pattern, behaviour }),
    reset: () => {
      overrides.clear();
      patterns.length = 0;
      requests.length = 0;
      build(initial);
    },
    ecbPath: (file) => `/ecb/${file}`,
    currencyApiPath: (tag) => `/npm/@fawazahmed0/currency-api@${tag}/v1/currencies/eur.min.json`,
    fallbackPath: (tag) => `/fallback/${tag}/v1/currencies/eur.min.json`,
    currencyApiBody: (date) => content.currencyApi.get(date),
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Upstream stand-ins for the enclosing describe block (or file), reset to their recorded answers after each test and
 * closed after the last.
 */
export function useUpstreamServer(): { readonly server: UpstreamServer } {
  let started: UpstreamServer | undefined;
  beforeAll(async () => {
    started = await startUpstreamServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  afterEach(() => started?.reset());
  return {
    get server() {
      if (!started) throw new Error('the upstream server starts in beforeAll');
      return started;
    },
  };
}

/**
 * Upstream stand-ins for the enclosing describe block (or file), with the environment pointed at them as the ingest
 * function reads it (source URLs, a short fetch timeout); the environment is restored and the server closed after.
 */
export function useUpstreamEnv(): { readonly server: UpstreamServer } {
  const holder: { server?: UpstreamServer } = {};
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    const server = await startUpstreamServer();
    holder.server = server;
    process.env.ECB_BASE_URL = server.urls.ecbBaseUrl;
    process.env.CURRENCY_API_BASE_URL = server.urls.currencyApiBaseUrl;
    process.env.CURRENCY_API_FALLBACK_URL = server.urls.currencyApiFallbackUrl;
    process.env.CENTRAL_BANK_ORIGIN = server.origin;
    process.env.FETCH_TIMEOUT_MS = '5000';
  });
  afterAll(async () => {
    process.env = savedEnv;
    await holder.server?.close();
  });
  return {
    get server() {
      if (!holder.server) throw new Error('the upstream server starts in beforeAll');
      return holder.server;
    },
  };
}
