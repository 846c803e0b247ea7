import { CURRENCY_TABLE } from './currency-table';

export type Locale = 'en' | 'de';
export const LOCALES: readonly Locale[] = ['en', 'de'];

export interface CurrencyInfo {
  code: string;
  name: Record<Locale, string>;
  symbol: string;
  /** Withdrawn from ISO 4217: valid only for historical days that have data. */
  withdrawn: boolean;
}

const catalog = new Map<string, CurrencyInfo>(
  Object.entries(CURRENCY_TABLE).map(([code, [en, de, symbol, withdrawn]]) => [
    code,
    { code, name: { en, de }, symbol, withdrawn },
  ]),
);

/** Every code the service knows: active ISO 4217 currencies plus withdrawn ones with ECB history. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  return catalog.get(code);
}

export function isCatalogCode(code: string): boolean {
  return catalog.has(code);
}

export function isActiveCode(code: string): boolean {
  return catalog.get(code)?.withdrawn === false;
}

export function catalogCodes(): string[] {
  return [...catalog.keys()];
}

/** Upstream code spellings vary (currency-api is lower case); the catalog is upper case. */
export function normalizeCode(raw: string): string {
  return raw.trim().toUpperCase();
}
