import { ApiFailure, BAD_RESPONSE, NETWORK_ERROR } from '../../../web/src/api';
import { type AuthStep, apiMessage, cognitoMessage, waitSentence } from '../../../web/src/messages';

const cognito = (type: string, step: AuthStep, email?: string) => cognitoMessage({ type, message: 'raw' }, step, email);

describe('Cognito refusals in plain words', () => {
  it('maps UsernameExistsException to a sentence naming the address', () => {
    const text = cognito('UsernameExistsException', 'sign-up', 'ann@example.com');
    expect(text).toContain('ann@example.com');
    expect(text).toMatch(/already exists/);
  });

  it('maps UserNotConfirmedException to the next step: the code', () => {
    expect(cognito('UserNotConfirmedException', 'sign-in', 'ann@example.com')).toBe(
      'The address ann@example.com is not verified yet. Enter the code we sent to it, or ask for a new code.',
    );
  });

  it('keeps the address exactly as typed, never capitalised, and says "this address" when there is none', () => {
    expect(cognito('NotAuthorizedException', 'verify', 'ann@example.com')).toContain(' ann@example.com ');
    expect(cognito('UserNotConfirmedException', 'sign-in')).toMatch(/^This address is not verified yet/);
  });

  it('says a wrong e-mail or password at sign-in without telling which one', () => {
    const text = cognito('NotAuthorizedException', 'sign-in', 'ann@example.com');
    expect(text).toBe('The e-mail address or the password is not right. Check both and try again.');
  });

  it('reads NotAuthorizedException on verification as an address already verified', () => {
    expect(cognito('NotAuthorizedException', 'verify', 'ann@example.com')).toMatch(/already verified/);
  });

  it('tells a wrong code from an expired one', () => {
    expect(cognito('CodeMismatchException', 'verify')).toMatch(/not right/);
    expect(cognito('ExpiredCodeException', 'reset')).toMatch(/expired/);
    expect(cognito('CodeMismatchException', 'verify')).not.toBe(cognito('ExpiredCodeException', 'verify'));
  });

  it('states the password policy when the pool refuses a password', () => {
    expect(cognito('InvalidPasswordException', 'sign-up')).toMatch(/12 characters.*lower-case.*upper-case.*digit/);
  });

  it('reads InvalidParameterException on "send a new code" as an address already verified', () => {
    expect(cognito('InvalidParameterException', 'resend', 'ann@example.com')).toMatch(/already verified/);
    expect(cognito('InvalidParameterException', 'sign-up')).toMatch(/not valid/);
  });

  it('asks to wait on LimitExceeded and TooManyRequests', () => {
    expect(cognito('LimitExceededException', 'forgot')).toMatch(/Wait a few minutes/);
    expect(cognito('TooManyRequestsException', 'sign-in')).toMatch(/Wait a moment/);
  });

  it('maps UserNotFoundException to a sentence naming the address and offering sign-up', () => {
    const text = cognito('UserNotFoundException', 'forgot', 'bob@example.com');
    expect(text).toContain('bob@example.com');
    expect(text).toMatch(/create an account/);
  });

  it('blames the connection when no answer came back', () => {
    expect(cognito('NetworkError', 'sign-in')).toMatch(/could not reach/);
  });

  it('never shows an exception name or the raw message, even for an unknown type', () => {
    const types = [
      'UsernameExistsException',
      'UserNotConfirmedException',
      'NotAuthorizedException',
      'CodeMismatchException',
      'ExpiredCodeException',
      'InvalidPasswordException',
      'InvalidParameterException',
      'LimitExceededException',
      'TooManyRequestsException',
      'UserNotFoundException',
      'SomethingNewException',
    ];
    const steps: AuthStep[] = ['sign-up', 'verify', 'resend', 'sign-in', 'forgot', 'reset'];
    for (const type of types) {
      for (const step of steps) {
        const text = cognito(type, step, 'ann@example.com');
        expect(text).not.toMatch(/Exception|raw/);
        expect(text).toMatch(/^[A-Z].*\.$/);
      }
    }
  });
});

describe('dashboard API refusals in plain words', () => {
  const failure = (status: number, code: string, extra: Partial<ApiFailure> = {}) =>
    Object.assign(new ApiFailure(status, code, 'server text'), extra);

  it('asks to sign in again on unauthenticated', () => {
    expect(apiMessage(failure(401, 'unauthenticated'))).toBe('Your session has ended. Sign in again to continue.');
  });

  it('explains a key limit and how to get past it', () => {
    expect(apiMessage(failure(409, 'key-limit-reached'), 'create-key')).toMatch(/Revoke a key.*bigger plan/);
  });

  it('turns Retry-After into minutes on the hourly key-creation limit', () => {
    const text = apiMessage(new ApiFailure(429, 'rate-limit-exceeded', 'x', undefined, 600), 'create-key');
    expect(text).toBe('You have created many keys in the last hour. Try again in 10 minutes.');
  });

  it('points at the name when the server refuses it', () => {
    expect(apiMessage(new ApiFailure(400, 'invalid-parameter', 'x', 'name'), 'create-key')).toMatch(/key name/);
    expect(apiMessage(new ApiFailure(400, 'invalid-parameter', 'x', 'body'), 'create-key')).not.toMatch(/key name/);
  });

  it('reads not-found on revocation as a key that is no longer the account’s', () => {
    expect(apiMessage(failure(404, 'not-found'), 'revoke-key')).toMatch(/no longer belongs to your account/);
    expect(apiMessage(failure(404, 'not-found'), 'load')).not.toMatch(/key/);
  });

  it('says a suspended account cannot create keys', () => {
    expect(apiMessage(failure(403, 'account-inactive'), 'create-key')).toMatch(/suspended, so it cannot create keys/);
  });

  it('separates our failures from the connection and from answers the page cannot read', () => {
    expect(apiMessage(failure(500, 'internal-error'))).toMatch(/on our side/);
    expect(apiMessage(failure(503, 'service-unavailable'))).toMatch(/unavailable/);
    expect(apiMessage(failure(0, NETWORK_ERROR))).toMatch(/could not reach the server/);
    expect(apiMessage(failure(502, BAD_RESPONSE))).toMatch(/cannot read/);
  });

  it("shows the server's sentence for a code newer than the page, but never for a server fault", () => {
    expect(apiMessage(failure(403, 'plan-upgrade-required'))).toBe('server text');
    expect(apiMessage(failure(500, 'brand-new-fault'))).toMatch(/on our side/);
    expect(apiMessage(Object.assign(new ApiFailure(400, 'brand-new', ''), {}))).toMatch(/refused/);
  });
});

describe('waiting times', () => {
  it('speaks of seconds under a minute and rounds longer waits up to minutes', () => {
    expect(waitSentence(1)).toBe('Try again in 1 second.');
    expect(waitSentence(45)).toBe('Try again in 45 seconds.');
    expect(waitSentence(60)).toBe('Try again in 1 minute.');
    expect(waitSentence(61)).toBe('Try again in 2 minutes.');
    expect(waitSentence(undefined)).toBe('Wait a while, then try again.');
  });
});
