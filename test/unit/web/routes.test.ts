import { hashOf, routeFor, viewOfHash } from '../../../web/src/routes';

describe('hash routes', () => {
  it('reads the view from #/name, #name and #/name/', () => {
    expect(viewOfHash('#/keys')).toBe('keys');
    expect(viewOfHash('#keys')).toBe('keys');
    expect(viewOfHash('#/sign-up/')).toBe('sign-up');
    expect(viewOfHash('')).toBeNull();
    expect(viewOfHash('#/admin')).toBeNull();
    expect(viewOfHash('#main')).toBeNull();
  });

  it('writes the hash it reads', () => {
    expect(viewOfHash(hashOf('forgot'))).toBe('forgot');
  });

  it('sends a signed-out visitor asking for a private view to sign-in', () => {
    expect(routeFor('#/keys', false)).toEqual({ view: 'sign-in', redirected: true });
    expect(routeFor('#/overview', false)).toEqual({ view: 'sign-in', redirected: true });
  });

  it('sends a signed-in holder asking for a sign-in view, or nothing, to the overview', () => {
    expect(routeFor('#/sign-in', true)).toEqual({ view: 'overview', redirected: true });
    expect(routeFor('', true)).toEqual({ view: 'overview', redirected: true });
  });

  it('shows the asked view when it suits the session', () => {
    expect(routeFor('#/verify', false)).toEqual({ view: 'verify', redirected: false });
    expect(routeFor('#/plans', true)).toEqual({ view: 'plans', redirected: false });
  });
});
