/** What every view is handed: the clients, the in-memory session, navigation and the page's notices. */
import type { DashboardApi } from './api';
import type { CognitoClient, Tokens } from './cognito';
import type { PageConfig } from './config';
import type { ApiAction } from './messages';
import type { View } from './routes';

export interface Notice {
  kind: 'error' | 'success';
  text: string;
}

/**
 * The ID and access tokens live here only; the refresh token also in this tab's sessionStorage (never localStorage
 * or a cookie), so a reload renews the session while another tab or a closed one does not. A script in the page
 * could read it, as it could the tokens; the CSP admits the page's own script only, and it writes no HTML from data.
 */
export interface Session {
  email: string;
  tokens: Tokens;
}

export interface App {
  readonly config: PageConfig;
  readonly cognito: CognitoClient;
  readonly api: DashboardApi;
  session: Session | null;
  /** The address last typed into a form, carried from sign-up to verification to sign-in. */
  email: string;
  /** Shows `view`, with `notice` in the live regions once it is drawn. */
  go(view: View, notice?: Notice): void;
  signIn(email: string, tokens: Tokens): void;
  signOut(notice?: Notice): Promise<void>;
  notify(notice: Notice): void;
  clearNotices(): void;
  /** Puts an API failure into words, or ends the session on a 401. */
  apiFailed(error: unknown, action: ApiAction): void;
  /** True while the view drawn under `generation` is still the one on screen, for answers that come late. */
  current(generation: number): boolean;
  readonly generation: number;
}

/** A view draws into `root`; what it returns runs when the page moves to another view. */
export type ViewRenderer = (app: App, root: HTMLElement) => (() => void) | undefined;
