import { DEFAULT_HOST, DEFAULT_PORT, parseHost, parsePort } from '../../../local-server/serve-env';
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
