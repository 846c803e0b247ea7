/**
 * The dashboard's password policy, defined once: the CDK user pool enforces it on AWS, the local Cognito emulator
 * (which enforces none of its own) is made to enforce it, and the page states it before anyone submits.
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: false,
} as const;

/** The policy in one sentence, for the page and for refusals. */
export const PASSWORD_POLICY_TEXT =
  'Passwords have at least 12 characters, with a lower-case letter, an upper-case letter and a digit.';

/** What a password lacks under the policy, as short phrases; empty when it complies. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if ([...password].length < PASSWORD_POLICY.minLength)
    problems.push(`at least ${PASSWORD_POLICY.minLength} characters`);
  if (PASSWORD_POLICY.requireLowercase && !/[a-z]/.test(password)) problems.push('a lower-case letter');
  if (PASSWORD_POLICY.requireUppercase && !/[A-Z]/.test(password)) problems.push('an upper-case letter');
  if (PASSWORD_POLICY.requireDigits && !/[0-9]/.test(password)) problems.push('a digit');
  return problems;
}
