import fc from 'fast-check';
import {
  ApiError,
  ERROR_CATALOG,
  type ErrorCode,
  InvalidAmountError,
  InvalidDateError,
  InvalidParameterError,
  isErrorCode,
  NoDataAvailableError,
  NotFoundError,
  PlanUpgradeRequiredError,
  ServiceUnavailableError,
  UnsupportedCurrencyError,
  UnsupportedLocaleError,
} from '../../../lambdas/core/domain/errors';

/** The contract's error table (API-CONTRACT.md, "Errors"), written out by hand. */
const CONTRACT_ERRORS: Record<string, number> = {
  'invalid-amount': 400,
  'invalid-date': 400,
  'invalid-parameter': 400,
  'api-key-in-url': 400,
  'missing-api-key': 401,
  'invalid-api-key': 401,
  'account-inactive': 403,
  'plan-upgrade-required': 403,
  'no-data-available': 404,
  'not-found': 404,
  'unsupported-currency': 422,
  'unsupported-locale': 422,
  'rate-limit-exceeded': 429,
  'quota-exceeded': 429,
  'internal-error': 500,
  'service-unavailable': 503,
};

/** Codes only the account dashboard's API answers (issue 15), beyond the contract's table. */
const DASHBOARD_ERRORS: Record<string, number> = {
  unauthenticated: 401,
  'email-not-verified': 403,
  'key-limit-reached': 409,
};

/** Codes only the web firewall in front of the deployed APIs answers (issue 17), beyond the contract's table. */
const FIREWALL_ERRORS: Record<string, number> = {
  'request-blocked': 403,
};

/** One human sentence: a capital first, one full stop at the end, no sentence break, no line break. */
function isOneSentence(message: string): boolean {
  return /^[A-Z'][^\n\r]*\.$/.test(message) && !/[.!?] [A-Z]/.test(message.slice(0, -1));
}

/** Printable ASCII, the letters, digits and marks of any script, and the ellipsis that marks a truncated echo. */
const PRINTABLE = /^[\x20-\x7e\p{L}\p{N}\p{M}…]*$/u;

describe('ERROR_CATALOG', () => {
  it("has exactly the codes and statuses of the contract table, plus the dashboard's and the firewall's own", () => {
    const catalog = Object.fromEntries(Object.entries(ERROR_CATALOG).map(([code, entry]) => [code, entry.status]));
    expect(catalog).toEqual({ ...CONTRACT_ERRORS, ...DASHBOARD_ERRORS, ...FIREWALL_ERRORS });
  });

  it('uses kebab-case codes', () => {
    for (const code of Object.keys(ERROR_CATALOG)) expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it('gives every code a default message of one sentence', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect([code, isOneSentence(entry.message)]).toEqual([code, true]);
    }
  });

  it('never names internals in a message', () => {
    for (const { message } of Object.values(ERROR_CATALOG)) {
      expect(message).not.toMatch(/\b(undefined|null|exception|stack|dynamo\w*|lambda)\b/i);
      expect(message).not.toMatch(/[A-Z]\w*Error\b/);
    }
  });
});

describe('isErrorCode', () => {
  it('knows the catalog codes and nothing else', () => {
    for (const code of Object.keys(CONTRACT_ERRORS)) expect(isErrorCode(code)).toBe(true);
    for (const other of ['toString', 'constructor', '__proto__', 'Not-Found', 'not_found', '']) {
      expect(isErrorCode(other)).toBe(false);
    }
  });
});

describe('ApiError', () => {
  it('takes status and default message from the catalog', () => {
    for (const code of Object.keys(ERROR_CATALOG) as ErrorCode[]) {
      const error = new ApiError(code);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.status).toBe({ ...CONTRACT_ERRORS, ...DASHBOARD_ERRORS, ...FIREWALL_ERRORS }[code]);
      expect(error.message).toBe(ERROR_CATALOG[code].message);
      expect(error.param).toBeUndefined();
    }
  });

  it('carries a custom message and the parameter at fault', () => {
    const error = new ApiError('invalid-parameter', 'The parameter base is given twice.', 'base');
    expect(error).toMatchObject({ code: 'invalid-parameter', status: 400, param: 'base' });
    expect(error.message).toBe('The parameter base is given twice.');
  });
});

describe('the *Error classes', () => {
  it.each([
    [new UnsupportedCurrencyError('XYZ', 'to'), 'unsupported-currency', 422, 'to'],
    [new UnsupportedCurrencyError('ABC', 'base'), 'unsupported-currency', 422, 'base'],
    [new UnsupportedLocaleError('fr'), 'unsupported-locale', 422, 'locale'],
    [new InvalidAmountError(), 'invalid-amount', 400, 'amount'],
    [new InvalidDateError('format'), 'invalid-date', 400, 'date'],
    [new InvalidDateError('calendar'), 'invalid-date', 400, 'date'],
    [new InvalidDateError('future'), 'invalid-date', 400, 'date'],
    [new InvalidParameterError('base', 'The parameter base is given twice.'), 'invalid-parameter', 400, 'base'],
    [
      new PlanUpgradeRequiredError('Historical rates need the Pro or Business plan.'),
      'plan-upgrade-required',
      403,
      undefined,
    ],
    [new NoDataAvailableError('USD', 'EUR', '2026-01-03'), 'no-data-available', 404, undefined],
    [new NotFoundError(), 'not-found', 404, undefined],
    [new ServiceUnavailableError(), 'service-unavailable', 503, undefined],
  ])('%p carries code %s, status %s and param %s', (error, code, status, param) => {
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.param).toBe(param);
    expect(isOneSentence(error.message)).toBe(true);
  });

  it("words an unsupported currency as the contract's example", () => {
    expect(new UnsupportedCurrencyError('XYZ', 'to').message).toBe("Currency 'XYZ' is not supported.");
  });

  it('gives each invalid-date reason its own message', () => {
    const messages = new Set(['format', 'calendar', 'future'].map((r) => new InvalidDateError(r as 'format').message));
    expect(messages.size).toBe(3);
  });

  it('names the pair and day when no rate is available', () => {
    expect(new NoDataAvailableError('USD', 'EUR', '2026-01-03').message).toBe(
      'No rate is available for USD/EUR on 2026-01-03.',
    );
  });

  it('keeps the default service-unavailable message unless given one', () => {
    expect(new ServiceUnavailableError().message).toBe(ERROR_CATALOG['service-unavailable'].message);
    expect(new ServiceUnavailableError('No rate data has been ingested yet.').message).toBe(
      'No rate data has been ingested yet.',
    );
  });
});

describe('user input echoed in messages', () => {
  it('is truncated to a short token', () => {
    const long = 'A'.repeat(500);
    const message = new UnsupportedCurrencyError(long, 'from').message;
    expect(message).toBe(`Currency '${'A'.repeat(16)}…' is not supported.`);
    expect(new UnsupportedLocaleError('x'.repeat(100)).message.length).toBeLessThan(80);
  });

  it('shows letters of any script as sent, and escapes control, bidi and other characters as \\u{XXXX}', () => {
    expect(new UnsupportedCurrencyError('ÉUR', 'from').message).toBe("Currency 'ÉUR' is not supported.");
    expect(new UnsupportedCurrencyError('円', 'from').message).toBe("Currency '円' is not supported.");
    const message = new UnsupportedCurrencyError('A\nB\u0000C\u202eD€', 'to').message;
    expect(message).toBe("Currency 'A\\u{000A}B\\u{0000}C\\u{202E}D\\u{20AC}' is not supported.");
    expect(new UnsupportedLocaleError('de\r\nX-Injected: 1').message).toBe(
      "Locale 'de\\u{000D}\\u{000A}X-Injected: …' is not supported; use 'en' or 'de'.",
    );
  });

  it('stays printable, short and one sentence for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (input) => {
        for (const error of [new UnsupportedCurrencyError(input, 'to'), new UnsupportedLocaleError(input)]) {
          expect(error.message).toMatch(PRINTABLE);
          expect(error.message).not.toMatch(/[\r\n\u202a-\u202e\u2066-\u2069]/);
          // At most 16 code points are echoed, an escape standing for one.
          expect([...error.message.replace(/\\u\{[0-9A-F]{4,6}\}/g, '?')].length).toBeLessThanOrEqual(80);
          expect(error.message.endsWith('.')).toBe(true);
        }
      }),
    );
  });
});
