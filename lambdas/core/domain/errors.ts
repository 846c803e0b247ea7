/**
 * The API's error catalog, published in its OpenAPI document: every code, its status and default message. Domain code
 * throws the *Error classes below; the HTTP layer renders any ApiError through this table.
 */
import { printable } from './text';

export const ERROR_CATALOG = {
  'invalid-amount': {
    status: 400,
    message: 'The amount must be a plain decimal number greater than 0 and less than 1000000000000.',
  },
  'invalid-date': {
    status: 400,
    message: 'The date must be a real calendar day in the format YYYY-MM-DD, not in the future.',
  },
  'invalid-parameter': { status: 400, message: 'A request parameter is malformed.' },
  'api-key-in-url': {
    status: 400,
    message: 'API keys must not be sent in the URL; send the key in the X-API-Key header only.',
  },
  'missing-api-key': { status: 401, message: 'The X-API-Key header is missing.' },
  // The account dashboard's API (/api): people sign in with Cognito; these codes are its own.
  unauthenticated: { status: 401, message: 'Sign in again: the session is missing, expired or not valid.' },
  'invalid-api-key': { status: 401, message: 'The API key is not valid.' },
  'account-inactive': { status: 403, message: 'The account of this API key is not active.' },
  'email-not-verified': {
    status: 403,
    message: 'Verify your e-mail address before using the account dashboard.',
  },
  'plan-upgrade-required': { status: 403, message: 'Your plan does not include this data; upgrade to access it.' },
  // Only on AWS: the web ACL blocked the request before API Gateway ran it (WAF_FILTERED).
  'request-blocked': { status: 403, message: 'The firewall refused this request.' },
  'no-data-available': { status: 404, message: 'No rate is available for this pair on that date.' },
  'not-found': { status: 404, message: 'No such endpoint.' },
  'key-limit-reached': {
    status: 409,
    message: 'Your plan allows no more active keys; revoke one, or ask for a plan with more.',
  },
  'unsupported-currency': { status: 422, message: 'The currency is not supported.' },
  'unsupported-locale': { status: 422, message: "The locale must be 'en' or 'de'." },
  'rate-limit-exceeded': {
    status: 429,
    message: 'The per-minute request limit is used up; retry after the minute resets.',
  },
  'quota-exceeded': {
    status: 429,
    message: 'The monthly request quota is used up; it resets at the start of next month.',
  },
  'internal-error': { status: 500, message: 'An unexpected error occurred.' },
  'service-unavailable': { status: 503, message: 'The service is temporarily unavailable; please retry later.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export type ErrorParam = 'from' | 'to' | 'base' | 'date' | 'amount' | 'locale' | 'X-API-Key' | (string & {});

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, value);
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly param?: ErrorParam,
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'ApiError';
    this.status = ERROR_CATALOG[code].status;
  }
}

/** Echoes user input in a message only as a short printable token. */
const quote = (value: string): string => printable(value, 16);

export class UnsupportedCurrencyError extends ApiError {
  constructor(code: string, param: ErrorParam) {
    super('unsupported-currency', `Currency '${quote(code)}' is not supported.`, param);
  }
}

export class UnsupportedLocaleError extends ApiError {
  constructor(locale: string) {
    super('unsupported-locale', `Locale '${quote(locale)}' is not supported; use 'en' or 'de'.`, 'locale');
  }
}

export class InvalidAmountError extends ApiError {
  constructor() {
    super('invalid-amount', undefined, 'amount');
  }
}

export class InvalidDateError extends ApiError {
  /** `param` names the day's parameter: `date` on history, `start`/`end` on the time series. */
  constructor(reason: 'format' | 'calendar' | 'future', param: ErrorParam = 'date') {
    const messages = {
      format: 'The date must be in the format YYYY-MM-DD.',
      calendar: 'The date is not a real calendar day.',
      future: 'The date must not be in the future.',
    } as const;
    super('invalid-date', messages[reason], param);
  }
}

export class InvalidParameterError extends ApiError {
  constructor(param: ErrorParam, message: string) {
    super('invalid-parameter', message, param);
  }
}

export class PlanUpgradeRequiredError extends ApiError {
  constructor(message: string, param?: ErrorParam) {
    super('plan-upgrade-required', message, param);
  }
}

export class NoDataAvailableError extends ApiError {
  constructor(from: string, to: string, date: string) {
    super('no-data-available', `No rate is available for ${from}/${to} on ${date}.`);
  }
}

/** History with `fallback=previous`: neither the day nor any of the `days` before it has a rate for the pair. */
export class NoFallbackDataError extends ApiError {
  constructor(from: string, to: string, date: string, days: number) {
    super('no-data-available', `No rate is available for ${from}/${to} on ${date} or the ${days} days before it.`);
  }
}

/** No day of a time series' range has a rate for the pair. */
export class NoSeriesDataError extends ApiError {
  constructor(from: string, to: string, start: string, end: string) {
    super('no-data-available', `No rate is available for ${from}/${to} between ${start} and ${end}.`);
  }
}

export class NotFoundError extends ApiError {
  constructor() {
    super('not-found');
  }
}

/** A 429 whose wait is known: the response carries it as Retry-After. */
export class RetryLaterError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate-limit-exceeded', message);
  }
}

/** A 503; `retryAfterSeconds`, when the wait is known, goes out as Retry-After. */
export class ServiceUnavailableError extends ApiError {
  constructor(
    message?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super('service-unavailable', message);
  }
}
