import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type LocalService, startLocalService } from '../../../local-server/service';
import { TestClock } from '../../support/api-service';
import {
  atBothSizes,
  deliveredCodes,
  expectNoAxeFinding,
  expectView as expectViewOn,
  launchChromium,
  newContext,
  poll,
  screenshotFolder,
} from '../../support/chromium';

/**
 * The sign-in journey's rough edges, in a real browser through the page only, against the local server's Cognito
 * emulator: a new code on request, an address verified twice, a wrong password, "forgot password" for an unknown
 * address, and a session that lasts for the tab (a reload, an expired ID token, a server restart) but not beyond
 * it (another tab, a refresh token past its life). Views are photographed into test-output/dashboard/sign-in-*
 * at 1280×800 and 390×844.
 *
 * The server runs on a clock the test moves, so tokens expire without waiting; the browser keeps real time.
 */

const SHOTS = screenshotFolder('dashboard');
const PASSWORD = 'Browser-Sign-In-2026';
const HOUR_MS = 3_600_000;

jest.setTimeout(120_000);

describe('signing in to the dashboard in a real browser', () => {
  const clock = new TestClock(new Date().toISOString());
  const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-sign-in-browser-'));
  const email = `sign-in-${Date.now()}@example.com`;
  let service: LocalService | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  const refreshes: string[] = [];
  const pageErrors: string[] = [];

  const svc = (): LocalService => {
    if (!service) throw new Error('the local service starts in beforeAll');
    return service;
  };
  const start = async (port = 0) => {
    service = await startLocalService({ dataDir, port, clock: clock.now, dashboard: true, demoAccounts: false });
  };

  beforeAll(async () => {
    await start();
    browser = await launchChromium();
    context = await newContext(browser);
    context.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.headers()['x-amz-target']?.endsWith('.InitiateAuth') && body.includes('REFRESH_TOKEN_AUTH')) {
        refreshes.push(request.url());
      }
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const expectView = (title: string, on: Page = page) => expectViewOn(on, title);

  const notice = (role: 'status' | 'alert', text: string, on: Page = page) =>
    on.getByRole(role).filter({ hasText: text }).waitFor();

  /** Photographs the page at both widths, and fails on any axe-core finding at either. */
  const shootBoth = (name: string) =>
    atBothSizes(page, SHOTS, `sign-in-${name}`, (size) => expectNoAxeFinding(page, `${name} (${size})`));

  const codesFor = (address: string) => deliveredCodes(svc().cognito?.codesFile, address);

  async function signIn(password: string): Promise<void> {
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('sends a new code on request, and the new code verifies the address', async () => {
    await page.goto(`${svc().dashboardUrl}#/sign-up`);
    await expectView('Create an account');
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectView('Verify your e-mail address');
    expect(codesFor(email)).toHaveLength(1);

    await page.getByRole('button', { name: 'Send a new code' }).click();
    await notice('status', `We sent a new code to ${email}.`);
    const codes = codesFor(email);
    expect(codes).toHaveLength(2);
    await shootBoth('new-code');
    await page.getByLabel('Verification code').fill(codes[1] ?? '');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expectView('Sign in');
    await notice('status', `${email} is verified. Sign in to continue.`);
  });

  it('says an address verified twice is verified, and offers sign-in with it filled in', async () => {
    await page.goto(`${svc().dashboardUrl}#/verify`);
    await expectView('Verify your e-mail address');
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Verification code').fill(codesFor(email).at(-1) ?? '');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expectView('Sign in');
    await notice('status', `The address ${email} is already verified. You can sign in.`);
    expect(await page.getByLabel('E-mail address', { exact: true }).inputValue()).toBe(email);
    expect(await page.locator('#alert').textContent()).toBe('');
    await shootBoth('already-verified');
  });

  it('says the e-mail address or the password is wrong, not that the password breaks the policy', async () => {
    await signIn('Wrong-Password-2026');
    await notice('alert', 'The e-mail address or the password is not right. Check both and try again.');
    expect(await page.getByRole('alert').textContent()).not.toContain('policy');
    await shootBoth('wrong-password');
  });

  it('answers "forgot password" for an unknown address as for a known one', async () => {
    const stranger = `nobody-${Date.now()}@example.com`;
    await page.goto(`${svc().dashboardUrl}#/forgot`);
    await expectView('Reset your password');
    await page.getByLabel('E-mail address', { exact: true }).fill(stranger);
    await page.getByRole('button', { name: 'Send code' }).click();
    await notice('status', `If ${stranger} has an account, we sent it a code. Enter it below.`);
    expect(await page.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true);
    expect(codesFor(stranger)).toEqual([]);
  });

  it('keeps the person signed in across a reload, and says on the sign-in view how long a session lasts', async () => {
    await page.goto(`${svc().dashboardUrl}#/sign-in`);
    await expectView('Sign in');
    await page
      .getByText('Your sign-in lasts for this tab, across reloads, until you sign out or close it.', { exact: false })
      .waitFor();
    await shootBoth('session-note');
    await signIn(PASSWORD);
    await expectView('Overview');
    await page.getByRole('link', { name: 'API keys' }).click();
    await expectView('API keys');
    // The tab keeps its refresh token and address, and nothing else: no ID or access token, no password.
    const stored = await page.evaluate(() => {
      type Storage = { length: number; key(i: number): string | null; getItem(key: string): string | null };
      const scope = globalThis as unknown as { sessionStorage: Storage; localStorage: Storage };
      const keys = Array.from({ length: scope.sessionStorage.length }, (_, i) => scope.sessionStorage.key(i));
      const value = scope.sessionStorage.getItem(keys[0] ?? '') ?? '{}';
      return { keys, fields: Object.keys(JSON.parse(value) as object).sort(), local: scope.localStorage.length };
    });
    expect(stored).toEqual({ keys: ['fxrates.dashboard.session'], fields: ['email', 'refreshToken'], local: 0 });
    await page.reload();
    await expectView('API keys');
    expect(await page.locator('.who .email').textContent()).toBe(email);
    await shootBoth('reloaded');
  });

  it('renews an ID token the API refuses once, instead of signing the person out', async () => {
    const before = refreshes.length;
    clock.advance(2 * HOUR_MS);
    await page.getByRole('link', { name: 'Overview' }).click();
    await expectView('Overview');
    await poll('a token refresh', () => refreshes.length > before || undefined, 10_000);
    await page.getByRole('heading', { level: 2, name: "This month's quota" }).waitFor();
    await expectView('Overview');
    expect(refreshes.length).toBe(before + 1);
    expect(await page.locator('#alert').textContent()).toBe('');
  });

  it('stays signed in across a restart of the local server, without a reload and after one', async () => {
    const port = svc().port;
    const before = refreshes.length;
    await svc().close();
    await start(port);
    await page.getByRole('link', { name: 'API keys' }).click();
    await expectView('API keys');
    expect(refreshes.length).toBe(before);
    await page.reload();
    await expectView('API keys');
    expect(refreshes.length).toBe(before + 1);
  });

  it('asks another tab to sign in, and signs out for good', async () => {
    const other = await context.newPage();
    await other.goto(`${svc().dashboardUrl}#/keys`);
    await expectView('Sign in', other);
    await other.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectView('Sign in');
    await page.reload();
    await expectView('Sign in');
    expect(await page.locator('.who').count()).toBe(0);
  });

  it('says why the person is signed out when the session has run out', async () => {
    await signIn(PASSWORD);
    await expectView('Overview');
    clock.advance(31 * 24 * HOUR_MS);
    await page.reload();
    await expectView('Sign in');
    await notice('alert', 'Your session has ended. Sign in again to continue.');
    await shootBoth('session-ended');
    expect(pageErrors).toEqual([]);
  });
});
