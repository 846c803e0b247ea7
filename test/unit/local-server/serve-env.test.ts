import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { DEFAULT_HOST, DEFAULT_PORT, parseHost, parsePort, readIngestSettings } from '../../../local-server/serve-env';
import { StartupError } from '../../../local-server/startup-errors';

describe('PORT', () => {
  it('is 3000 when unset or empty (an empty PORT does not pick a random port)', () => {
    expect(DEFAULT_PORT).toBe(3000);
    expect(parsePort(undefined)).toBe(3000);
    expect(parsePort('')).toBe(3000);
    expect(parsePort('  ')).toBe(3000);
  });

  it('takes a whole number from 0 (any free port) to 65535', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('1')).toBe(1);
    expect(parsePort('8080')).toBe(8080);
    expect(parsePort('65535')).toBe(65535);
    expect(parsePort('03000')).toBe(3000);
    expect(parsePort(' 3001 ')).toBe(3001);
  });

  it.each(['abc', '3000x', '-1', '70000', '65536', '1e3', '0x10', '3000.0', '3.5', '+80', '100000000'])(
    "refuses '%s', saying what a port is",
    (value) => {
      expect(() => parsePort(value)).toThrow(StartupError);
      expect(() => parsePort(value)).toThrow(`PORT must be a port number from 0 to 65535, not '${value}'.`);
    },
  );

  it('shows an odd value safely', () => {
    expect(() => parsePort('80\n81')).toThrow("PORT must be a port number from 0 to 65535, not '80\\n81'.");
    expect(() => parsePort("8'0")).toThrow("not '8\\'0'.");
  });
});

describe('HOST', () => {
  it('is 127.0.0.1 when unset or empty', () => {
    expect(DEFAULT_HOST).toBe('127.0.0.1');
    expect(parseHost(undefined)).toBe('127.0.0.1');
    expect(parseHost('')).toBe('127.0.0.1');
  });

  it.each(['0.0.0.0', '::1', '::', '192.168.1.20', 'localhost', 'my-laptop.local', 'fxrates.example.com.'])(
    "takes the address or host name '%s'",
    (value) => {
      expect(parseHost(value)).toBe(value);
    },
  );

  it.each(['a b', 'http://localhost', 'localhost:3000', '-bad', 'bad-.example', 'a..b', 'ä.example', 'under_score'])(
    "refuses '%s'",
    (value) => {
      expect(() => parseHost(value)).toThrow('HOST must be an IP address or a host name of this machine, not ');
    },
  );
});

describe('SOURCES, CROSS_CHECK_TOLERANCE and CROSS_CHECK_EXEMPT', () => {
  const NAMES = ['SOURCES', 'CROSS_CHECK_TOLERANCE', 'CROSS_CHECK_EXEMPT'] as const;
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const withEnv = (values: Partial<Record<(typeof NAMES)[number], string>>) => {
    for (const name of NAMES) {
      const value = values[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("takes the ingest function's defaults when unset or empty: every source, 5 %, CUP and LBP", () => {
    for (const value of [undefined, '']) {
      withEnv({ SOURCES: value, CROSS_CHECK_TOLERANCE: value, CROSS_CHECK_EXEMPT: value });
      expect(readIngestSettings()).toEqual({
        sources: [...SOURCE_IDS],
        crossCheckTolerance: 0.05,
        crossCheckExempt: ['CUP', 'LBP'],
      });
    }
  });

  it('keeps the order SOURCES gives, which ranks the central banks, and reads the cross-check settings', () => {
    withEnv({ SOURCES: 'cnb, nbp,ecb,cnb', CROSS_CHECK_TOLERANCE: '0.08', CROSS_CHECK_EXEMPT: 'none' });
    expect(readIngestSettings()).toEqual({
      sources: ['cnb', 'nbp', 'ecb'],
      crossCheckTolerance: 0.08,
      crossCheckExempt: [],
    });
    withEnv({ CROSS_CHECK_EXEMPT: 'VND,CUP' });
    expect(readIngestSettings().crossCheckExempt).toEqual(['VND', 'CUP']);
  });

  it.each([
    [
      { SOURCES: 'ecb,bogus' },
      `SOURCES must be some of ${SOURCE_IDS.join(', ')}, separated by commas, not 'ecb,bogus'.`,
    ],
    [{ SOURCES: ' , ' }, 'SOURCES must be some of'],
    [{ CROSS_CHECK_TOLERANCE: '5' }, "CROSS_CHECK_TOLERANCE must be a fraction above 0 and at most 1, not '5'."],
    [{ CROSS_CHECK_TOLERANCE: '0' }, "not '0'."],
    [{ CROSS_CHECK_TOLERANCE: 'x\n' }, "CROSS_CHECK_TOLERANCE must be a fraction above 0 and at most 1, not 'x\\n'."],
    [
      { CROSS_CHECK_EXEMPT: 'cup' },
      "CROSS_CHECK_EXEMPT must be ISO currency codes separated by commas, or none, not 'cup'.",
    ],
  ])('refuses %j as the ingest function would, saying what the setting takes', (values, message) => {
    withEnv(values);
    expect(() => readIngestSettings()).toThrow(StartupError);
    expect(() => readIngestSettings()).toThrow(message);
  });

  it("reads an environment it is given (a template's), not the process's, and quotes that one's value", () => {
    withEnv({ SOURCES: 'nbp', CROSS_CHECK_TOLERANCE: '0.5', CROSS_CHECK_EXEMPT: 'VND' });
    expect(readIngestSettings({ SOURCES: 'ecb,cnb', CROSS_CHECK_TOLERANCE: '0.02' })).toEqual({
      sources: ['ecb', 'cnb'],
      crossCheckTolerance: 0.02,
      crossCheckExempt: ['CUP', 'LBP'],
    });
    expect(() => readIngestSettings({ CROSS_CHECK_EXEMPT: 'usd' })).toThrow(
      "CROSS_CHECK_EXEMPT must be ISO currency codes separated by commas, or none, not 'usd'.",
    );
  });
});
