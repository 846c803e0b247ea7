import { checkCreateAccountInput, checkKeyName } from '../../../lambdas/core/store/account-input';

const refusal = (check: () => unknown): string => {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('account input checks', () => {
  it('names the first field at fault, in the order plan, email, overrides, verified, accountId', () => {
    const cases: [unknown, string][] = [
      [null, 'Invalid input'],
      [[], 'Invalid input'],
      [{ verified: 1, plan: 2, email: 3 }, 'plan: plan must be one of free, pro, business'],
      [{ plan: 'free', verified: true, email: 'a..b@b.co' }, 'email: the email address is not valid'],
      [{ plan: 'free', verified: true, email: `${'a'.repeat(250)}@x.io` }, 'email: the email address is not valid'],
      [{ plan: 'free', email: 'a@b.co', overrides: { foo: 1 } }, 'overrides: Invalid input'],
      [{ plan: 'free', overrides: { foo: 1, monthlyLimit: 0.5 } }, 'overrides.monthlyLimit: Invalid input'],
      [
        { plan: 'free', verified: true, overrides: { overflowPercent: 101 } },
        'overrides.overflowPercent: Invalid input',
      ],
      [{ plan: 'free', verified: 'yes' }, 'verified: Invalid input'],
      [{ plan: 'free', verified: true, accountId: 5 }, 'accountId: Invalid input'],
      [
        { plan: 'free', verified: true, accountId: 'a b' },
        'accountId: account ids are 1 to 64 characters of letters, digits, _ and -',
      ],
    ];
    for (const [input, message] of cases)
      expect([input, refusal(() => checkCreateAccountInput(input))]).toEqual([input, message]);
  });

  it('keeps the known fields and drops unknown ones', () => {
    expect(
      checkCreateAccountInput({
        plan: 'pro',
        verified: false,
        email: "o'k@d.org",
        extra: 1,
        overrides: { perMinute: 5 },
      }),
    ).toEqual({ plan: 'pro', email: "o'k@d.org", overrides: { perMinute: 5 }, verified: false });
  });

  it('trims a key name and refuses an empty, long or non-ASCII one', () => {
    expect(checkKeyName('\ufeff ci \u00a0')).toBe('ci');
    expect(refusal(() => checkKeyName(5))).toBe('Invalid input');
    expect(refusal(() => checkKeyName(' \n'))).toBe('a key name must not be empty');
    expect(refusal(() => checkKeyName('x'.repeat(65)))).toBe('a key name has at most 64 characters');
    expect(refusal(() => checkKeyName('a\tb'))).toBe('a key name consists of printable ASCII characters');
  });
});
