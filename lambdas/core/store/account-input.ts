/**
 * What creating an account and naming a key accept, as zod schemas. A module of its own, which account-input-loader.ts
 * imports at the first of those calls: of the dashboard functions only keys-create bundles zod, and it evaluates zod
 * there, not at every cold start, since most of its cold starts never create a key.
 */
import * as z from 'zod/mini';
import { isPlanId, MAX_LIMIT, PLAN_IDS, type PlanId } from '../domain/plans';

const PlanIdSchema = z.custom<PlanId>((value) => typeof value === 'string' && isPlanId(value), {
  error: `plan must be one of ${PLAN_IDS.join(', ')}`,
});

const LimitOverridesSchema = z.strictObject({
  monthlyLimit: z.optional(z.int().check(z.positive(), z.maximum(MAX_LIMIT))),
  perMinute: z.optional(z.int().check(z.positive(), z.maximum(MAX_LIMIT))),
  overflowPercent: z.optional(z.int().check(z.minimum(0), z.maximum(100))),
  overflowAllowed: z.optional(z.boolean()),
});
const AccountIdSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'account ids are 1 to 64 characters of letters, digits, _ and -' }));
export const KeyNameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'a key name must not be empty' }),
    z.maxLength(64, { error: 'a key name has at most 64 characters' }),
    z.regex(/^[\x20-\x7e]+$/, { error: 'a key name consists of printable ASCII characters' }),
  );
export const CreateAccountInputSchema = z.object({
  plan: PlanIdSchema,
  email: z.optional(z.email({ error: 'the email address is not valid' }).check(z.maxLength(254))),
  overrides: z.optional(LimitOverridesSchema),
  verified: z.boolean(),
  accountId: z.optional(AccountIdSchema),
});

export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
