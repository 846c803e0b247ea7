/**
 * The dashboard's entry: reads /config.json, then draws the view the URL's hash names. Where the tokens live, and
 * why: app.ts.
 */
import { ApiFailure, createDashboardApi } from './api';
import type { App, Notice, Session, ViewRenderer } from './app';
import { type CognitoClient, CognitoError, createCognitoClient, type Tokens } from './cognito';
import { type PageConfig, parseConfig } from './config';
import { byId, fill, h } from './dom';
import { type ApiAction, apiMessage, cognitoMessage } from './messages';
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
  } catch {}
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

/** The session in memory: its ID token while fresh, and new tokens for its refresh token. */
function sessionHolder(cognito: CognitoClient) {
  let refreshing: Promise<boolean> | undefined;
  const holder = {
    current: null as Session | null,
    idToken(): string | null {
      const { current } = holder;
      if (current === null || current.tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) return null;
      return current.tokens.idToken;
    },
    /** One attempt at a time, whoever asks; false when there is nothing to refresh or Cognito refuses. */
    refresh(): Promise<boolean> {
      const current = holder.current;
      const refreshToken = current?.tokens.refreshToken;
      if (!current || refreshToken === undefined) return Promise.resolve(false);
      refreshing ??= cognito
        .refresh(refreshToken)
        .then((tokens) => {
          if (holder.current !== current) return false;
          holder.current = { email: current.email, tokens: { ...tokens, refreshToken } };
          return true;
        })
        .catch(() => false)
        .finally(() => {
          refreshing = undefined;
        });
      return refreshing;
    },
    end(): void {
      holder.current = null;
      storeSession(null);
    },
  };
  return holder;
}

/** A session renewed from the refresh token this tab stored, or the notice that says why it could not be. */
async function renewStored(
  cognito: CognitoClient,
  stored: StoredSession,
): Promise<{ session: Session } | { notice: Notice }> {
  try {
    const tokens = await cognito.refresh(stored.refreshToken);
    return { session: { email: stored.email, tokens: { ...tokens, refreshToken: stored.refreshToken } } };
  } catch (error) {
    // Only a refusal ends the stored session: after a failed connection, the next reload tries again.
    const refused = error instanceof CognitoError && error.type === 'NotAuthorizedException';
    if (refused) storeSession(null);
    return {
      notice: {
        kind: 'error',
        text: refused
          ? 'Your session has ended. Sign in again to continue.'
          : cognitoMessage(error instanceof CognitoError ? error : new CognitoError('UnknownError', ''), 'sign-in'),
      },
    };
  }
}

/** Puts an API failure into words; a lost or unverified session sends the person where they can fix it. */
function explainApiFailure(app: App, endSession: () => void, error: unknown, action: ApiAction): void {
  if (!(error instanceof ApiFailure)) {
    console.error(error);
    showNotice({ kind: 'error', text: 'Something went wrong on this page. Reload it and try again.' });
    return;
  }
  const notice: Notice = { kind: 'error', text: apiMessage(error, action) };
  const unauthenticated = error.status === 401 || error.code === 'unauthenticated';
  const goTo = unauthenticated ? 'sign-in' : error.code === 'email-not-verified' ? 'verify' : null;
  if (goTo === null) {
    showNotice(notice);
    return;
  }
  endSession();
  app.go(goTo, notice);
}

/** The navigation and the signed-in address with its sign-out button; empty when nobody is signed in. */
function drawAccountBar(view: View, session: Session | null, signOut: () => void): void {
  const bar = byId('account-bar');
  if (session === null) {
    fill(bar);
    return;
  }
  const button = h('button', { type: 'button', class: 'secondary small' }, 'Sign out');
  button.addEventListener('click', signOut);
  const links = PRIVATE_VIEWS.map((name) =>
    h('li', null, h('a', { href: hashOf(name), 'aria-current': name === view ? 'page' : null }, VIEW_TITLES[name])),
  );
  fill(
    bar,
    h('nav', { 'aria-label': 'Dashboard' }, h('ul', null, ...links)),
    h('div', { class: 'who' }, h('span', { class: 'email' }, session.email), button),
  );
}

/** The app the views are handed, and what only the page's start calls. */
type Page = App & { render(): void; resume(): Promise<void> };

function createApp(config: PageConfig): Page {
  let generation = 0;
  let cleanup: (() => void) | undefined;
  let pending: Notice | undefined;
  let drawn = false;

  const cognito = createCognitoClient({
    endpoint: config.cognito.endpoint,
    clientId: config.cognito.clientId,
    fetch: (input, init) => fetch(input, init),
  });
  const sessions = sessionHolder(cognito);

  const app: Page = {
    config,
    cognito,
    api: createDashboardApi({
      base: config.apiBase,
      fetch: (input, init) => fetch(input, init),
      idToken: sessions.idToken,
      refresh: sessions.refresh,
    }),
    get session() {
      return sessions.current;
    },
    set session(value) {
      sessions.current = value;
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
      sessions.current = { email, tokens };
      app.email = email;
      storeSession(tokens.refreshToken === undefined ? null : { email, refreshToken: tokens.refreshToken });
      app.go('overview');
    },

    async resume() {
      const stored = storedSession();
      if (stored === null) return;
      app.email = stored.email;
      const renewed = await renewStored(cognito, stored);
      if ('session' in renewed) sessions.current = renewed.session;
      else pending = renewed.notice;
    },

    async signOut(notice) {
      const ending = sessions.current;
      sessions.end();
      app.go('sign-in', notice ?? { kind: 'success', text: 'You are signed out.' });
      if (ending) await app.cognito.signOut(ending.tokens.accessToken);
    },

    apiFailed: (error, action) => explainApiFailure(app, sessions.end, error, action),

    render() {
      const { view, redirected } = routeFor(location.hash, sessions.current !== null);
      if (redirected) history.replaceState(null, '', hashOf(view));
      cleanup?.();
      cleanup = undefined;
      generation += 1;
      clearNotices();
      document.title = `${VIEW_TITLES[view]} · fxrates dashboard`;
      drawAccountBar(view, sessions.current, () => void app.signOut());
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
