import { CURRENCY_NAMES, CURRENCY_STATUS } from './currency-table';

export type Locale = 'en' | 'de';
export const LOCALES: readonly Locale[] = ['en', 'de'];

export interface CurrencyInfo {
  code: string;
  name: Record<Locale, string>;
  symbol: string;
  /** Withdrawn from ISO 4217: valid only for historical days that have data. */
  withdrawn: boolean;
}

/** Every code the service knows: active ISO 4217 currencies plus withdrawn ones with ECB history. */
export function isCatalogCode(code: string): boolean {
  return Object.hasOwn(CURRENCY_STATUS, code);
}

export function isActiveCode(code: string): boolean {
  return isCatalogCode(code) && CURRENCY_STATUS[code] === false;
}

export function catalogCodes(): string[] {
  return Object.keys(CURRENCY_STATUS);
}

/** Names and symbol of a catalog code; only the functions that display them bundle the names table. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  const names = Object.hasOwn(CURRENCY_NAMES, code) ? CURRENCY_NAMES[code] : undefined;
  if (!names) return undefined;
  const [en, de, symbol] = names;
  return { code, name: { en, de }, symbol, withdrawn: CURRENCY_STATUS[code] === true };
}

/** Upstream code spellings vary (currency-api is lower case); the catalog is upper case. */
export function normalizeCode(raw: string): string {
  return raw.trim().toUpperCase();
}
