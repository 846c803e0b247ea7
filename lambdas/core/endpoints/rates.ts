import type { APIGatewayProxyEvent } from 'aws-lambda';
import { currencyInfo, isActiveCode, type Locale } from '../domain/currencies';
import { formatDay, oneYearBefore } from '../domain/dates';
import {
  NoDataAvailableError,
  PlanUpgradeRequiredError,
  ServiceUnavailableError,
  UnsupportedCurrencyError,
} from '../domain/errors';
import { PLANS } from '../domain/plans';
import { convert, crossRate, type RateSnapshot, rateTable } from '../domain/rates';
import { type Endpoint, pathParams, singleQuery } from '../http/api-handler';
import { RawNumber, stringifyJson } from '../http/json';
import { accessOf } from '../http/middleware';
import {
  readEnrichedInput,
  readHistoryPath,
  readLatestQuery,
  readLocaleQuery,
  readPairInput,
} from '../http/parameters';
import { successResponse } from '../http/responses';
import { logger } from '../observability';
import type { EndpointDeps } from './deps';

/** A store that cannot be read is a dependency being down: 503, so clients retry, rather than a 500. */
async function storeRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    logger.error('rate store read failed', { error: error as Error });
    throw new ServiceUnavailableError();
  }
}

/**
 * The latest snapshot, read once per request, and its rates restricted to the currencies served today
 * (withdrawn codes only live in history).
 */
async function current(deps: EndpointDeps): Promise<{ snapshot: RateSnapshot; rates: Record<string, number> }> {
  const snapshot = await storeRead(() => deps.reader.getLatest());
  if (!snapshot) throw new ServiceUnavailableError('No rate data has been ingested yet; please retry later.');
  const rates = deps.reader.memo(snapshot, 'active', () => {
    const active: Record<string, number> = {};
    for (const [code, rate] of Object.entries(snapshot.rates)) if (isActiveCode(code)) active[code] = rate;
    return active;
  });
  return { snapshot, rates };
}

function requireServed(rates: Record<string, number>, code: string, param: 'from' | 'to' | 'base'): void {
  if (rates[code] === undefined) throw new UnsupportedCurrencyError(code, param);
}

/** Today's rate between two served currencies (pair and enriched); 422 for a code that is not served. */
async function currentPairRate(deps: EndpointDeps, from: string, to: string): Promise<number> {
  const { rates } = await current(deps);
  requireServed(rates, from, 'from');
  requireServed(rates, to, 'to');
  return crossRate(rates, from, to) as number;
}

export function latestEndpoint(deps: EndpointDeps): Endpoint {
  return async (event) => {
    const { base } = readLatestQuery(singleQuery(event, ['base']));
    const { snapshot, rates } = await current(deps);
    requireServed(rates, base, 'base');
    // The whole body is rendered once per base and snapshot; a warm function then only copies a string.
    const body = deps.reader.memo(snapshot, `latest:${base}`, () =>
      stringifyJson({ success: true, data: { base, updated_at: snapshot.publishedAt, rates: rateTable(rates, base) } }),
    );
    return successResponse(undefined, { body });
  };
}

export function pairEndpoint(deps: EndpointDeps): Endpoint {
  return async (event) => {
    // Path and query are read together, so a malformed value (400) outranks an unsupported one (422) wherever it is.
    const { from, to, amount } = readPairInput({ path: pathParams(event), query: singleQuery(event, ['amount']) });
    const rate = await currentPairRate(deps, from, to);
    const data =
      amount === undefined
        ? { base: from, target: to, rate }
        : {
            base: from,
            target: to,
            rate,
            amount: new RawNumber(amount),
            converted: new RawNumber(convert(amount, rate)),
          };
    return successResponse(data);
  };
}

export function historyEndpoint(deps: EndpointDeps): Endpoint {
  return async (event: APIGatewayProxyEvent) => {
    const today = formatDay(deps.clock());
    const { from, to, date } = readHistoryPath(pathParams(event), today);
    // Active codes are supported where the sources deliver them today; withdrawn ones on their historical days.
    const { rates } = await current(deps);
    if (isActiveCode(from)) requireServed(rates, from, 'from');
    if (isActiveCode(to)) requireServed(rates, to, 'to');
    const plan = accessOf(event).plan;
    const months = plan ? PLANS[plan].historyMonths : 0;
    if (months === 0) {
      throw new PlanUpgradeRequiredError('Historical rates are not included in your plan; upgrade to Pro or Business.');
    }
    if (months !== null) {
      const earliest = oneYearBefore(today);
      if (date < earliest) {
        throw new PlanUpgradeRequiredError(
          `Your plan includes history back to ${earliest}; upgrade to Business for the full history since 1999.`,
          'date',
        );
      }
    }
    const day = await storeRead(() => deps.reader.getDay(date));
    const rate = day ? crossRate(day.rates, from, to) : undefined;
    if (rate === undefined) throw new NoDataAvailableError(from, to, date);
    return successResponse({ base: from, target: to, date, rate });
  };
}

export function currenciesEndpoint(deps: EndpointDeps): Endpoint {
  return async (event) => {
    const { locale } = readLocaleQuery(singleQuery(event, ['locale']));
    const { snapshot, rates } = await current(deps);
    const body = deps.reader.memo(snapshot, `currencies:${locale}`, () => {
      const currencies: Record<string, string> = {};
      for (const code of Object.keys(rates).sort()) {
        const info = currencyInfo(code);
        if (info) currencies[code] = info.name[locale];
      }
      return stringifyJson({ success: true, data: { currencies } });
    });
    return successResponse(undefined, { body });
  };
}

function detail(code: string, locale: Locale): { name: string; symbol: string } {
  const info = currencyInfo(code);
  return { name: info?.name[locale] ?? code, symbol: info?.symbol ?? code };
}

export function enrichedEndpoint(deps: EndpointDeps): Endpoint {
  return async (event) => {
    const { from, to, locale } = readEnrichedInput({ path: pathParams(event), query: singleQuery(event, ['locale']) });
    return successResponse({
      base: from,
      target: to,
      rate: await currentPairRate(deps, from, to),
      base_detail: detail(from, locale),
      target_detail: detail(to, locale),
    });
  };
}
