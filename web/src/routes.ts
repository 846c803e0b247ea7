/** The page's views, addressed by the URL's hash (`#/keys`), so one static index.html serves them all. */

export const PUBLIC_VIEWS = ['sign-in', 'sign-up', 'verify', 'forgot'] as const;
export const PRIVATE_VIEWS = ['overview', 'keys', 'plans'] as const;
export type PublicView = (typeof PUBLIC_VIEWS)[number];
export type PrivateView = (typeof PRIVATE_VIEWS)[number];
export type View = PublicView | PrivateView;

export const VIEW_TITLES: Readonly<Record<View, string>> = {
  'sign-in': 'Sign in',
  'sign-up': 'Create an account',
  verify: 'Verify your e-mail address',
  forgot: 'Reset your password',
  overview: 'Overview',
  keys: 'API keys',
  plans: 'Plans',
};

function isView(name: string): name is View {
  return (PUBLIC_VIEWS as readonly string[]).includes(name) || (PRIVATE_VIEWS as readonly string[]).includes(name);
}

export function isPrivateView(view: View): view is PrivateView {
  return (PRIVATE_VIEWS as readonly string[]).includes(view);
}

/** The view a hash names (`#/keys`, `#keys`, `#/keys/`), or null. */
export function viewOfHash(hash: string): View | null {
  const name = hash.replace(/^#\/?/, '').replace(/\/+$/, '');
  return isView(name) ? name : null;
}

export function hashOf(view: View): string {
  return `#/${view}`;
}

/**
 * The view to show for a hash: a signed-out visitor asking for a private view gets the sign-in view, a signed-in
 * one asking for a public view (or nothing) gets the overview. `redirected` says the hash should be rewritten.
 */
export function routeFor(hash: string, signedIn: boolean): { view: View; redirected: boolean } {
  const asked = viewOfHash(hash);
  const fallback: View = signedIn ? 'overview' : 'sign-in';
  if (asked === null) return { view: fallback, redirected: true };
  if (isPrivateView(asked) !== signedIn) return { view: fallback, redirected: true };
  return { view: asked, redirected: false };
}
