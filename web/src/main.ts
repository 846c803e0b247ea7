/**
 * The dashboard's entry: reads /config.json, then draws the view the URL's hash names. The ID and access tokens
 * live in this module's closure only; the refresh token is also kept in this tab's sessionStorage, so a reload
 * renews the session instead of ending it (app.ts says what that costs and why it is kept there).
 */
import { ApiFailure, createDashboardApi } from './api';
import type { App, Notice, Session, ViewRenderer } from './app';
import { CognitoError, createCognitoClient, type Tokens } from './cognito';
import { type PageConfig, parseConfig } from './config';
import { byId, fill, h } from './dom';
import { apiMessage, cognitoMessage } from './messages';
import { hashOf, PRIVATE_VIEWS, routeFor, VIEW_TITLES, type View } from './routes';
import { forgotView, signInView, signUpView, verifyView } from './views/auth';
import { keysView } from './views/keys';
import { overviewView } from './views/overview';
import { plansView } from './views/plans';

const RENDERERS: Readonly<Record<View, ViewRenderer>> = {
  'sign-in': signInView,
  'sign-up': signUpView,
  verify: verifyView,
  forgot: forgotView,
  overview: overviewView,
  keys: keysView,
  plans: plansView,
};

/** Tokens this close to expiry count as expired, so a call does not leave with a token that dies on the way. */
const EXPIRY_MARGIN_MS = 30_000;

/** The sessionStorage entry that lets a reload of this tab renew its session. */
const STORED_SESSION = 'fxrates.dashboard.session';

interface StoredSession {
  email: string;
  refreshToken: string;
}

/** sessionStorage can be switched off, or full: then the session lasts until the next reload, as before. */
function storeSession(value: StoredSession | null): void {
  try {
    if (value === null) sessionStorage.removeItem(STORED_SESSION);
    else sessionStorage.setItem(STORED_SESSION, JSON.stringify(value));
  } catch {
    // Nothing to do: the session in memory is unaffected.
  }
}

function storedSession(): StoredSession | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(STORED_SESSION) ?? 'null') as Partial<StoredSession> | null;
    return typeof parsed?.email === 'string' && typeof parsed.refreshToken === 'string'
      ? { email: parsed.email, refreshToken: parsed.refreshToken }
      : null;
  } catch {
    return null;
  }
}

function showNotice(notice: Notice): void {
  const region = byId(notice.kind === 'error' ? 'alert' : 'status');
  fill(region, h('p', { class: `notice notice-${notice.kind}` }, notice.text));
}

function clearNotices(): void {
  fill(byId('alert'));
  fill(byId('status'));
}

function createApp(config: PageConfig): App & { render(): void; resume(): Promise<void> } {
  let session: Session | null = null;
  let refreshing: Promise<boolean> | undefined;
  let generation = 0;
  let cleanup: (() => void) | undefined;
  let pending: Notice | undefined;
  let drawn = false;

  const idToken = (): string | null => {
    if (session === null || session.tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) return null;
    return session.tokens.idToken;
  };

  const cognito = createCognitoClient({
    endpoint: config.cognito.endpoint,
    clientId: config.cognito.clientId,
    fetch: (input, init) => fetch(input, init),
  });

  /** New tokens for the session's refresh token; one attempt at a time, whoever asks. */
  const refresh = (): Promise<boolean> => {
    const current = session;
    const refreshToken = current?.tokens.refreshToken;
    if (!current || refreshToken === undefined) return Promise.resolve(false);
    refreshing ??= cognito
      .refresh(refreshToken)
      .then((tokens) => {
        if (session !== current) return false;
        session = { email: current.email, tokens: { ...tokens, refreshToken } };
        return true;
      })
      .catch(() => false)
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };

  const endSession = (): void => {
    session = null;
    storeSession(null);
  };

  const app: App & { render(): void; resume(): Promise<void> } = {
    config,
    cognito,
    api: createDashboardApi({
      base: config.apiBase,
      fetch: (input, init) => fetch(input, init),
      idToken,
      refresh,
    }),
    get session() {
      return session;
    },
    set session(value) {
      session = value;
    },
    email: '',
    get generation() {
      return generation;
    },
    current: (drawnUnder) => drawnUnder === generation,
    notify: showNotice,
    clearNotices,

    go(view, notice) {
      pending = notice;
      if (location.hash === hashOf(view)) app.render();
      else location.hash = hashOf(view);
    },

    signIn(email: string, tokens: Tokens) {
      session = { email, tokens };
      app.email = email;
      storeSession(tokens.refreshToken === undefined ? null : { email, refreshToken: tokens.refreshToken });
      app.go('overview');
    },

    async resume() {
      const stored = storedSession();
      if (stored === null) return;
      app.email = stored.email;
      try {
        const tokens = await cognito.refresh(stored.refreshToken);
        session = { email: stored.email, tokens: { ...tokens, refreshToken: stored.refreshToken } };
      } catch (error) {
        // Only a refusal ends the stored session: after a failed connection, the next reload tries again.
        const refused = error instanceof CognitoError && error.type === 'NotAuthorizedException';
        if (refused) storeSession(null);
        pending = {
          kind: 'error',
          text: refused
            ? 'Your session has ended. Sign in again to continue.'
            : cognitoMessage(error instanceof CognitoError ? error : new CognitoError('UnknownError', ''), 'sign-in'),
        };
      }
    },

    async signOut(notice) {
      const ending = session;
      endSession();
      app.go('sign-in', notice ?? { kind: 'success', text: 'You are signed out.' });
      if (ending) await app.cognito.signOut(ending.tokens.accessToken);
    },

    apiFailed(error, action) {
      if (!(error instanceof ApiFailure)) {
        console.error(error);
        showNotice({ kind: 'error', text: 'Something went wrong on this page. Reload it and try again.' });
        return;
      }
      if (error.status === 401 || error.code === 'unauthenticated') {
        endSession();
        app.go('sign-in', { kind: 'error', text: apiMessage(error, action) });
        return;
      }
      if (error.code === 'email-not-verified') {
        endSession();
        app.go('verify', { kind: 'error', text: apiMessage(error, action) });
        return;
      }
      showNotice({ kind: 'error', text: apiMessage(error, action) });
    },

    render() {
      const { view, redirected } = routeFor(location.hash, session !== null);
      if (redirected) history.replaceState(null, '', hashOf(view));
      cleanup?.();
      cleanup = undefined;
      generation += 1;
      clearNotices();
      document.title = `${VIEW_TITLES[view]} · fxrates dashboard`;
      drawShell(view);
      const root = byId('view');
      root.replaceChildren();
      cleanup = RENDERERS[view](app, root);
      if (pending) showNotice(pending);
      pending = undefined;
      // On the first view the reader starts at the top anyway; after a move, it starts at the new heading.
      if (drawn) root.querySelector<HTMLElement>('h1')?.focus();
      drawn = true;
    },
  };

  function drawShell(view: View): void {
    const bar = byId('account-bar');
    if (session === null) {
      fill(bar);
      return;
    }
    const signOut = h('button', { type: 'button', class: 'secondary small' }, 'Sign out');
    signOut.addEventListener('click', () => void app.signOut());
    fill(
      bar,
      h(
        'nav',
        { 'aria-label': 'Dashboard' },
        h(
          'ul',
          null,
          ...PRIVATE_VIEWS.map((name) =>
            h(
              'li',
              null,
              h('a', { href: hashOf(name), 'aria-current': name === view ? 'page' : null }, VIEW_TITLES[name]),
            ),
          ),
        ),
      ),
      h('div', { class: 'who' }, h('span', { class: 'email' }, session.email), signOut),
    );
  }

  return app;
}

async function loadConfig(): Promise<PageConfig> {
  const response = await fetch('config.json', { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) throw new Error(`config.json answered HTTP ${response.status}`);
  return parseConfig(await response.json());
}

async function start(): Promise<void> {
  const skip = byId<HTMLAnchorElement>('skip-link');
  // The hash is the router's: the skip link moves focus itself instead of changing it.
  skip.addEventListener('click', (event) => {
    event.preventDefault();
    byId('main').focus();
  });
  let config: PageConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    console.error(error);
    fill(
      byId('view'),
      h('h1', null, 'The dashboard cannot start'),
      h(
        'p',
        { class: 'notice notice-error', role: 'alert' },
        'The page could not load its settings. Reload it in a moment; if this goes on, contact the operator of this service.',
      ),
    );
    return;
  }
  const app = createApp(config);
  await app.resume();
  window.addEventListener('hashchange', () => app.render());
  app.render();
}

void start();
