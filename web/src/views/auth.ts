/** Sign in, sign up, verification and password reset: the views a signed-out visitor sees. */
import type { App, ViewRenderer } from '../app';
import { CognitoError } from '../cognito';
import { busy, field, h } from '../dom';
import { looksLikeEmail, normalizeCode, normalizeEmail, PASSWORD_POLICY_TEXT, passwordMessage } from '../input-rules';
import { type AuthStep, cognitoMessage } from '../messages';
import { hashOf } from '../routes';
import { flagInput, heading, showPasswordToggle, viewLink } from './common';

function emailField(app: App, autocomplete = 'username') {
  return field({
    label: 'E-mail address',
    name: 'email',
    type: 'email',
    attrs: {
      autocomplete,
      required: true,
      value: app.email,
      spellcheck: 'false',
      autocapitalize: 'none',
      inputmode: 'email',
    },
  });
}

function codeField() {
  return field({
    label: 'Verification code',
    name: 'code',
    hint: 'The code from the e-mail we sent you.',
    attrs: { autocomplete: 'one-time-code', inputmode: 'numeric', required: true, spellcheck: 'false' },
  });
}

function newPasswordField(label: string) {
  return field({
    label,
    name: 'password',
    type: 'password',
    hint: PASSWORD_POLICY_TEXT,
    attrs: { autocomplete: 'new-password', required: true, minlength: 12 },
  });
}

/** Says what is wrong with a field and flags it; null, for the readers below to return. */
function refuse(app: App, input: HTMLInputElement, text: string): null {
  app.notify({ kind: 'error', text });
  flagInput(input);
  return null;
}

/** Reads and checks the address; on a bad one says so, flags the field and returns null. */
function readEmail(app: App, input: HTMLInputElement): string | null {
  const email = normalizeEmail(input.value);
  if (!looksLikeEmail(email)) return refuse(app, input, 'Enter your e-mail address, such as name@example.com.');
  app.email = email;
  return email;
}

function readNewPassword(app: App, input: HTMLInputElement): string | null {
  const problem = passwordMessage(input.value);
  return problem ? refuse(app, input, problem) : input.value;
}

function readCode(app: App, input: HTMLInputElement): string | null {
  const code = normalizeCode(input.value);
  return code === '' ? refuse(app, input, 'Enter the code from the e-mail we sent you.') : code;
}

/**
 * An address already verified is not a failure: the person is sent to sign in, told so. Cognito says it with
 * NotAuthorizedException on confirmation and InvalidParameterException on a new code.
 */
function alreadyVerified(app: App, error: unknown, step: 'verify' | 'resend', email: string): boolean {
  if (!(error instanceof CognitoError)) return false;
  const expected = step === 'verify' ? 'NotAuthorizedException' : 'InvalidParameterException';
  if (error.type !== expected) return false;
  app.go('sign-in', { kind: 'success', text: cognitoMessage(error, step, email) });
  return true;
}

function cognitoFailed(app: App, error: unknown, step: AuthStep, email: string): void {
  const failure = error instanceof CognitoError ? error : new CognitoError('UnknownError', String(error));
  app.notify({ kind: 'error', text: cognitoMessage(failure, step, email) });
}

/** The row under a form: its submit button, then any secondary action. */
function submitActions(label: string, ...secondary: Node[]): HTMLDivElement {
  return h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, label), ...secondary);
}

/** A form that never submits by itself: the page handles it, and a strict CSP forbids form targets anyway. */
function authForm(
  app: App,
  labelledBy: string,
  children: (Node | null)[],
  onSubmit: (submit: HTMLButtonElement) => Promise<void>,
) {
  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': labelledBy }, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const submit = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (!submit || submit.disabled) return;
    app.clearNotices();
    void onSubmit(submit);
  });
  return form;
}

export const signInView: ViewRenderer = (app, root) => {
  const { title, header } = heading('Sign in', 'Sign in to see your usage and manage your API keys.');
  const email = emailField(app);
  const password = field({
    label: 'Password',
    name: 'password',
    type: 'password',
    attrs: { autocomplete: 'current-password', required: true },
  });
  const form = authForm(
    app,
    title.id,
    [email.wrapper, password.wrapper, showPasswordToggle(password.input), submitActions('Sign in')],
    async (submit) => {
      const address = readEmail(app, email.input);
      if (address === null) return;
      if (password.input.value === '') {
        refuse(app, password.input, 'Enter your password.');
        return;
      }
      try {
        const tokens = await busy(submit, 'Signing in…', () => app.cognito.signIn(address, password.input.value));
        app.signIn(address, tokens);
      } catch (error) {
        if (error instanceof CognitoError && error.type === 'UserNotConfirmedException') {
          app.go('verify', { kind: 'error', text: cognitoMessage(error, 'sign-in', address) });
          return;
        }
        cognitoFailed(app, error, 'sign-in', address);
        password.input.focus();
      }
    },
  );
  root.append(
    header,
    form,
    h(
      'p',
      { class: 'note' },
      'Your sign-in lasts for this tab, across reloads, until you sign out or close it. Other tabs ask you to sign in.',
    ),
    h(
      'ul',
      { class: 'links' },
      h('li', null, 'New here? ', viewLink(hashOf('sign-up'), 'Create an account')),
      h('li', null, viewLink(hashOf('forgot'), 'Forgot your password?')),
      h('li', null, 'Have a verification code? ', viewLink(hashOf('verify'), 'Verify your address')),
    ),
  );
  return undefined;
};

export const signUpView: ViewRenderer = (app, root) => {
  const { title, header } = heading(
    'Create an account',
    'Sign up with your e-mail address. We send a code to verify it; then you can create API keys.',
  );
  const email = emailField(app);
  const password = newPasswordField('Password');
  const form = authForm(
    app,
    title.id,
    [email.wrapper, password.wrapper, showPasswordToggle(password.input), submitActions('Create account')],
    async (submit) => {
      const address = readEmail(app, email.input);
      if (address === null) return;
      const secret = readNewPassword(app, password.input);
      if (secret === null) return;
      try {
        await busy(submit, 'Creating account…', () => app.cognito.signUp(address, secret));
        app.go('verify', { kind: 'success', text: `We sent a verification code to ${address}. Enter it below.` });
      } catch (error) {
        cognitoFailed(app, error, 'sign-up', address);
      }
    },
  );
  root.append(
    header,
    form,
    h('ul', { class: 'links' }, h('li', null, 'Already have an account? ', viewLink(hashOf('sign-in'), 'Sign in'))),
  );
  return undefined;
};

export const verifyView: ViewRenderer = (app, root) => {
  const { title, header } = heading(
    'Verify your e-mail address',
    'Enter the code we sent to your address. Codes expire after a while; ask for a new one if yours has.',
  );
  const email = emailField(app);
  const code = codeField();
  const resend = h('button', { type: 'button', class: 'secondary' }, 'Send a new code');
  resend.addEventListener('click', async () => {
    app.clearNotices();
    const address = readEmail(app, email.input);
    if (address === null) return;
    try {
      await busy(resend, 'Sending…', () => app.cognito.resendCode(address));
      app.notify({ kind: 'success', text: `We sent a new code to ${address}.` });
      code.input.focus();
    } catch (error) {
      if (!alreadyVerified(app, error, 'resend', address)) cognitoFailed(app, error, 'resend', address);
    }
  });
  const form = authForm(
    app,
    title.id,
    [email.wrapper, code.wrapper, submitActions('Verify', resend)],
    async (submit) => {
      const address = readEmail(app, email.input);
      if (address === null) return;
      const value = readCode(app, code.input);
      if (value === null) return;
      try {
        await busy(submit, 'Verifying…', () => app.cognito.confirmSignUp(address, value));
        app.go('sign-in', { kind: 'success', text: `${address} is verified. Sign in to continue.` });
      } catch (error) {
        if (!alreadyVerified(app, error, 'verify', address)) cognitoFailed(app, error, 'verify', address);
      }
    },
  );
  root.append(
    header,
    form,
    h('ul', { class: 'links' }, h('li', null, 'Already verified? ', viewLink(hashOf('sign-in'), 'Sign in'))),
  );
  if (app.email !== '') queueMicrotask(() => code.input.focus());
  return undefined;
};

export const forgotView: ViewRenderer = (app, root) => {
  const { title, header } = heading(
    'Reset your password',
    'We send a code to your e-mail address; with it you choose a new password.',
  );
  const email = emailField(app);
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send code');
  const requestForm = authForm(app, title.id, [email.wrapper, h('div', { class: 'actions' }, send)], async (submit) => {
    const address = readEmail(app, email.input);
    if (address === null) return;
    try {
      await busy(submit, 'Sending…', () => app.cognito.forgotPassword(address));
      send.textContent = 'Send a new code';
      showStepTwo();
      app.notify({ kind: 'success', text: `If ${address} has an account, we sent it a code. Enter it below.` });
    } catch (error) {
      cognitoFailed(app, error, 'forgot', address);
    }
  });

  const code = codeField();
  const password = newPasswordField('New password');
  const stepTitle = h('h2', { id: `${title.id}-step` }, 'Choose a new password');
  const resetForm = authForm(
    app,
    stepTitle.id,
    [stepTitle, code.wrapper, password.wrapper, showPasswordToggle(password.input), submitActions('Set new password')],
    async (submit) => {
      const address = app.email;
      const value = readCode(app, code.input);
      if (value === null) return;
      const secret = readNewPassword(app, password.input);
      if (secret === null) return;
      try {
        await busy(submit, 'Saving…', () => app.cognito.confirmForgotPassword(address, value, secret));
        app.go('sign-in', { kind: 'success', text: 'Your password is changed. Sign in with the new password.' });
      } catch (error) {
        cognitoFailed(app, error, 'reset', address);
      }
    },
  );
  resetForm.hidden = true;

  function showStepTwo(): void {
    code.input.focus();
    if (!resetForm.hidden) return;
    email.input.readOnly = true;
    const change = h('button', { type: 'button', class: 'link' }, 'Use a different address');
    change.addEventListener('click', () => {
      email.input.readOnly = false;
      resetForm.hidden = true;
      send.textContent = 'Send code';
      change.remove();
      email.input.focus();
    });
    email.wrapper.append(change);
    resetForm.hidden = false;
    code.input.focus();
  }

  root.append(
    header,
    requestForm,
    resetForm,
    h('ul', { class: 'links' }, h('li', null, 'Remembered it? ', viewLink(hashOf('sign-in'), 'Sign in'))),
  );
  return undefined;
};
