/** Refusals put into sentences a customer can act on: never an exception name or an HTTP status. */
import { type ApiFailure, BAD_RESPONSE, NETWORK_ERROR } from './api';
import type { CognitoError } from './cognito';
import { PASSWORD_POLICY_TEXT } from './input-rules';

/** The step of the sign-in journey a Cognito call belongs to: the same exception means different things in each. */
export type AuthStep = 'sign-up' | 'verify' | 'resend' | 'sign-in' | 'forgot' | 'reset';

/** The address inside a sentence, or "this address" when the form had none. */
const the = (email: string | undefined): string => email || 'this address';
/** The address opening a sentence; an address itself is never capitalised, since that would change it. */
const subject = (email: string | undefined): string => (email ? `The address ${email}` : 'This address');

export function cognitoMessage(
  failure: Pick<CognitoError, 'type' | 'message'>,
  step: AuthStep,
  email?: string,
): string {
  const address = the(email);
  switch (failure.type) {
    case 'UsernameExistsException':
      return `An account with ${address} already exists. Sign in, or reset the password if you have forgotten it.`;
    case 'UserNotConfirmedException':
      return `${subject(email)} is not verified yet. Enter the code we sent to it, or ask for a new code.`;
    case 'NotAuthorizedException':
      if (step === 'verify') return `${subject(email)} is already verified. You can sign in.`;
      if (step === 'sign-in') return 'The e-mail address or the password is not right. Check both and try again.';
      if (step === 'forgot' || step === 'reset') {
        return `The password of ${address} cannot be reset now. If the address is not verified yet, verify it first.`;
      }
      return 'Cognito refused this request. Sign in again and retry.';
    case 'CodeMismatchException':
      return 'That code is not right. Check the latest e-mail we sent and enter its code again.';
    case 'ExpiredCodeException':
      return 'That code has expired or was already used. Ask for a new code and enter it.';
    case 'InvalidPasswordException':
      return `The password does not meet the policy. ${PASSWORD_POLICY_TEXT}`;
    case 'InvalidParameterException':
      if (step === 'resend') return `${subject(email)} is already verified. You can sign in.`;
      if (step === 'forgot') {
        return `A code cannot be sent to ${address}. If you have not verified the address yet, verify it first.`;
      }
      return 'Some of the details are not valid. Check the e-mail address and the other fields, then try again.';
    case 'LimitExceededException':
    case 'TooManyFailedAttemptsException':
      return 'There were too many attempts. Wait a few minutes, then try again.';
    case 'TooManyRequestsException':
      return 'There are too many requests right now. Wait a moment, then try again.';
    case 'UserNotFoundException':
      return `No account uses ${address}. Check the address, or create an account.`;
    case 'CodeDeliveryFailureException':
      return `We could not send a code to ${address}. Check the address, then ask for a new code.`;
    case 'PasswordResetRequiredException':
      return 'You need to set a new password before signing in. Use "Forgot your password?" to get a code.';
    case 'UnsupportedChallenge':
      return 'Signing in needs a step this page does not offer. Contact the operator of this service.';
    case 'NetworkError':
      return 'We could not reach the sign-in service. Check your connection and try again.';
    case 'InternalErrorException':
      return 'The sign-in service had a problem. Try again in a moment.';
    default:
      return 'Something went wrong with the sign-in service. Try again in a moment.';
  }
}

/** What the page was doing when the API refused, for the sentences that depend on it. */
export type ApiAction = 'load' | 'create-key' | 'revoke-key';

export function apiMessage(
  failure: Pick<ApiFailure, 'status' | 'code' | 'message' | 'param' | 'retryAfterSeconds'>,
  action: ApiAction = 'load',
): string {
  switch (failure.code) {
    case 'unauthenticated':
      return 'Your session has ended. Sign in again to continue.';
    case 'email-not-verified':
      return 'Verify your e-mail address before using the dashboard, then sign in again.';
    case 'account-inactive':
      return action === 'create-key'
        ? 'Your account is suspended, so it cannot create keys. Contact the operator of this service.'
        : 'Your account is suspended. Contact the operator of this service.';
    case 'invalid-parameter':
      if (failure.param === 'name') {
        return 'The key name was refused: use 1 to 64 unaccented letters, digits, spaces or common punctuation.';
      }
      return 'The request was not accepted. Reload the page and try again.';
    case 'key-limit-reached':
      return 'Your plan allows no more active keys. Revoke a key you no longer use, or ask for a bigger plan.';
    case 'rate-limit-exceeded':
    case 'too-many-requests':
      return action === 'create-key'
        ? `You have created many keys in the last hour. ${waitSentence(failure.retryAfterSeconds)}`
        : `There were too many requests. ${waitSentence(failure.retryAfterSeconds)}`;
    case 'not-found':
      return action === 'revoke-key'
        ? 'That key no longer belongs to your account. The list now shows your current keys.'
        : 'The dashboard could not find what it asked for. Reload the page.';
    case 'internal-error':
      return 'Something went wrong on our side. Try again in a moment.';
    case 'service-unavailable':
      return 'The service is unavailable for a moment. Try again shortly.';
    case NETWORK_ERROR:
      return 'We could not reach the server. Check your connection and try again.';
    case BAD_RESPONSE:
      return 'The server sent an answer the page cannot read. Try again in a moment.';
    default:
      // A code newer than this page: the catalog's messages are plain sentences, better than a vague one.
      if (failure.status >= 500) return 'Something went wrong on our side. Try again in a moment.';
      return failure.message.trim() !== ''
        ? failure.message
        : 'The request was refused. Reload the page and try again.';
  }
}

/** "Try again in 12 minutes." from a Retry-After in seconds, rounded up to the minute past a minute. */
export function waitSentence(seconds: number | undefined): string {
  if (seconds === undefined || seconds <= 0) return 'Wait a while, then try again.';
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
