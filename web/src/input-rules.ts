/** Mirrors of the servers' rules, so a customer hears about a typo at once rather than after a round trip. */

import { passwordProblems } from './password-policy';

export { PASSWORD_POLICY_TEXT, passwordProblems } from './password-policy';

/** The sentence for a password that misses the policy (the one the user pool enforces), or null when it meets it. */
export function passwordMessage(password: string): string | null {
  const problems = passwordProblems(password);
  if (problems.length === 0) return null;
  const list = problems.length === 1 ? problems[0] : `${problems.slice(0, -1).join(', ')} and ${problems.at(-1)}`;
  return `The password needs ${list}.`;
}

/** So that signing in as `Ann@Example.com` finds the account made as `ann@example.com` on either host. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A loose check (something@something.tld); the pool has the last word. */
export function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** Codes arrive by e-mail; people paste them with spaces or dashes between the digits. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '');
}

export const KEY_NAME_MAX_LENGTH = 64;

/** Why a key name would be refused (1 to 64 printable ASCII characters after trimming), or null. */
export function keyNameMessage(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the key a name, such as "my laptop".';
  if (trimmed.length > KEY_NAME_MAX_LENGTH) {
    return `The name is ${trimmed.length} characters long; use at most ${KEY_NAME_MAX_LENGTH}.`;
  }
  if (/[^\x20-\x7e]/.test(trimmed)) {
    return 'Use only unaccented letters, digits, spaces and common punctuation in the name.';
  }
  return null;
}
