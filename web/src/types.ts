/** The dashboard API's data, as the shared design of issue 15 states it (only the fields the page reads). */

import type { DayUsage, QuotaReport } from '../../lambdas/core/domain/quota';

export type { DayUsage } from '../../lambdas/core/domain/quota';

export interface AccountData {
  account: {
    id: string;
    email: string;
    plan: string;
    plan_name: string;
    status: 'active' | 'suspended';
    created_at: string;
  };
  /** The report GET /v1/quota answers with (domain/quota.ts). */
  quota: QuotaReport;
  /**
   * `month` is YYYY-MM; `days` runs from the 1st to today. The days' requests include `quota_checks`, which
   * `quota.used` does not: GET /v1/quota counts toward the minute only.
   */
  usage: { month: string; days: DayUsage[]; quota_checks: number };
  /** `next_key_at`: when the key-creation limit admits the next key; null when it admits one now. */
  keys: { active: number; max_active: number | null; next_key_at: string | null };
}

export interface KeySummary {
  id: string;
  name: string;
  prefix: string | null;
  created_at: string;
  status: 'active' | 'revoked';
  revoked_at?: string;
}

export interface KeysData {
  keys: KeySummary[];
  active: number;
  max_active: number | null;
  can_create: boolean;
  cannot_create_reason?: string;
  /** When the key-creation limit admits the next key; null when it admits one now. */
  next_key_at: string | null;
}

/** The answer to POST /api/keys: the only time the full key is sent. */
export interface CreatedKey extends KeySummary {
  key: string;
}

export interface RevokedKey extends KeySummary {
  already_revoked: boolean;
}

export interface PlanSummary {
  id: string;
  name: string;
  price_eur_per_month: number;
  monthly_limit: number;
  per_minute: number;
  history: string;
  max_active_keys: number | null;
  overflow_percent: number;
  extras?: string;
}

export interface PlansData {
  current: string;
  contact: string | null;
  plans: PlanSummary[];
}
