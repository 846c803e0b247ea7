import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { loadBundledRates } from '../../../bench/support/bundled-rates';
import { type LocalService, startLocalService } from '../../../local-server/service';
import { formatDate, formatMonth } from '../../../web/src/format';
import {
  type AxeFinding,
  axeViolations,
  DESKTOP,
  deliveredCodes,
  expectView as expectViewOn,
  launchChromium,
  newContext,
  poll,
  recordCspViolations,
  resize,
  screenshot,
  screenshotFolder,
} from '../../support/chromium';

/**
 * A new customer's whole journey in a real browser, through the page only: sign up, verify with the code the local
 * server delivered, sign in, create a key, copy it, use it on the public API, see the usage rise, revoke it and see
 * the API refuse it. Every view is checked with axe-core and photographed into test-output/dashboard/.
 *
 * The browser is Debian's chromium package, driven by playwright-core: nothing is downloaded. A missing browser
 * fails the suite rather than skipping it, so a machine without one cannot pass unnoticed.
 */

const SHOTS = screenshotFolder('dashboard');
/** Narrower than the other tests' phone, the smallest screen the page is drawn for. */
const PHONE = { width: 375, height: 812 };
const PASSWORD = 'Browser-Test-2026';
const KEY_NAME = 'browser test';
/** The authorizer's cache TTL here; the production one is 60 s, covered by another test with an injected clock. */
const CACHE_TTL_MS = 1000;

jest.setTimeout(120_000);

describe('the account dashboard in a real browser', () => {
  let dataDir: string | undefined;
  let service: LocalService | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const consoleErrors: { text: string; url: string }[] = [];
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];
  const failedResponses: { status: number; url: string; target: string | undefined }[] = [];
  const axeFindings = new Map<string, AxeFinding[]>();

  const email = `Browser-${Date.now()}@Example.com`;
  let apiKey = '';

  const svc = (): LocalService => {
    if (!service) throw new Error('the local service starts in beforeAll');
    return service;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fxrates-browser-'));
    service = await startLocalService({
      dataDir,
      port: 0,
      loadRates: loadBundledRates,
      recordCacheTtlMs: CACHE_TTL_MS,
      dashboard: true,
    });
    if (!service.dashboardUrl) throw new Error('the local service did not start the dashboard');
    browser = await launchChromium();
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(service.dashboardUrl).origin,
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push({ text: message.text(), url: message.location().url });
    });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('response', (response) => {
      if (response.status() < 400) return;
      const target = response
        .request()
        .headers()
        ['x-amz-target']?.replace(/^AWSCognitoIdentityProviderService\./, '');
      failedResponses.push({ status: response.status(), url: response.url(), target });
    });
    await recordCspViolations(page, cspViolations);
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (axeFindings.size > 0) {
      const byImpact: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
      for (const found of axeFindings.values()) {
        for (const finding of found) byImpact[finding.impact] = (byImpact[finding.impact] ?? 0) + 1;
      }
      console.log(
        `axe-core on ${axeFindings.size} views (${[...axeFindings.keys()].join(', ')}): ${JSON.stringify(byImpact)}`,
      );
    }
  });

  const expectView = (title: string) => expectViewOn(page, title);

  /** The flow's steps depend on each other: after one fails, the rest say so at once instead of timing out. */
  let failedStep: string | undefined;
  function step(name: string, run: () => Promise<void>): void {
    it(name, async () => {
      if (failedStep !== undefined) throw new Error(`not run: the earlier step "${failedStep}" failed`);
      try {
        await run();
      } catch (error) {
        failedStep = name;
        throw error;
      }
    });
  }

  function status(text: string | RegExp): Locator {
    return page.getByRole('status').filter({ hasText: text });
  }

  /** Runs axe-core on the page as it is; fails on serious or critical violations and prints the rest. */
  async function checkAccessibility(view: string): Promise<void> {
    const { findings, passed } = await axeViolations(page);
    // A run that checked nothing would pass vacuously.
    expect(passed).toBeGreaterThan(10);
    axeFindings.set(view, findings);
    for (const finding of findings) {
      console.log(`axe ${view}: ${finding.impact} ${finding.id} (${finding.help}) at ${finding.nodes.join(', ')}`);
    }
    expect(findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical')).toEqual([]);
  }

  const shoot = (name: string) => screenshot(page, SHOTS, name);

  /** Shows the view at phone width, photographs it, and goes back to the desktop size. */
  async function shootPhone(name: string): Promise<void> {
    await resize(page, PHONE);
    await shoot(name);
    await resize(page, DESKTOP);
  }

  const codeFor = (address: string) =>
    poll(`a verification code for ${address}`, () => deliveredCodes(svc().cognito?.codesFile, address).at(-1));

  /** Today's date as the page shows it (in UTC, the API's clock). */
  const todayLabel = (): string => formatDate(new Date().toISOString());
  const monthLabel = (): string => formatMonth(new Date().toISOString().slice(0, 7));

  /** Today's requests from the table behind the chart, and the quota's "used" figure, read off the overview. */
  async function readUsage(): Promise<{ today: number; used: number }> {
    await expectView('Overview');
    const table = page.getByRole('table', { name: `Requests per day, ${monthLabel()}` });
    if (!(await table.isVisible())) await page.getByText('Show the daily figures as a table').click();
    const row = table.getByRole('row', { name: new RegExp(`^${todayLabel()} `) });
    const today = Number((await row.getByRole('cell').first().innerText()).replace(/,/g, ''));
    const used = Number(
      (await page.getByText(/ of [\d,]+ requests used$/).innerText()).split(' ')[0]?.replace(/,/g, ''),
    );
    return { today, used };
  }

  async function callApi(key: string): Promise<{ status: number; code: string | undefined }> {
    const res = await fetch(`${svc().url}rates/latest`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { error?: { code: string } };
    return { status: res.status, code: body.error?.code };
  }

  step('signs a new customer up and verifies the address with the code the local server delivered', async () => {
    await page.goto(svc().dashboardUrl ?? '');
    await expectView('Sign in');
    await shoot('01-sign-in');
    await checkAccessibility('sign-in');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expectView('Create an account');
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await shoot('02-sign-up');
    await checkAccessibility('sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expectView('Verify your e-mail address');
    const address = email.toLowerCase();
    await status(`We sent a verification code to ${address}.`).waitFor();
    expect(await page.getByLabel('E-mail address', { exact: true }).inputValue()).toBe(address);
    await page.getByLabel('Verification code').fill(await codeFor(address));
    await shoot('03-verify');
    await checkAccessibility('verify');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();

    await expectView('Sign in');
    await status(`${address} is verified. Sign in to continue.`).waitFor();
  });

  step('signs in and lands on the overview of a new Free account', async () => {
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await shoot('04-sign-in-verified');
    await checkAccessibility('sign-in (verified)');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expectView('Overview');
    expect(await page.getByRole('link', { name: 'Overview', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await readUsage()).toEqual({ today: 0, used: 0 });
    await shoot('05-overview-new');
    await checkAccessibility('overview (new account)');
  });

  step('creates a key, shows it once, and copies it to the clipboard', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await expectView('API keys');
    await page.getByText('You have no keys yet. Create one above.').waitFor();
    await page.getByLabel('Key name').fill(KEY_NAME);
    await page.getByRole('button', { name: 'Create key' }).click();

    await page.getByRole('heading', { name: `Your new key "${KEY_NAME}"` }).waitFor();
    const shown = page.getByLabel('API key', { exact: true });
    expect(await shown.getAttribute('readonly')).not.toBeNull();
    apiKey = await shown.inputValue();
    expect(apiKey).toMatch(/^fxr_[A-Za-z0-9_-]{20,}$/);
    await page
      .getByRole('row', { name: new RegExp(KEY_NAME) })
      .getByText('Active')
      .waitFor();
    // Once a Free account has its one key, the page says why it cannot create another.
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await status('The key is copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
    await shoot('06-keys-new-key');
    await checkAccessibility('keys (key shown)');
    await shootPhone('phone-keys-new-key');

    await page.getByRole('button', { name: 'I have saved it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(apiKey);
  });

  step('uses the key on the public API and sees the usage rise on the overview', async () => {
    expect(await callApi(apiKey)).toEqual({ status: 200, code: undefined });

    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    const usage = await readUsage();
    expect(usage.today).toBeGreaterThanOrEqual(1);
    expect(usage.used).toBeGreaterThanOrEqual(1);
    await shoot('07-overview-used');
    await checkAccessibility('overview (after a request)');
    await shootPhone('phone-overview');
  });

  step('revokes the key after a confirmation, and the public API refuses it', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await expectView('API keys');
    await page.getByRole('button', { name: `Revoke key "${KEY_NAME}"` }).click();

    const dialog = page.getByRole('dialog', { name: `Revoke the key "${KEY_NAME}"?` });
    await dialog.waitFor();
    await shoot('08-revoke-dialog');
    await checkAccessibility('revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const revokedAt = Date.now();

    await status(`The key "${KEY_NAME}" is revoked.`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(KEY_NAME) });
    await row.getByText(`Revoked ${todayLabel()}`).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create key' }).isEnabled()).toBe(true);
    await shoot('09-keys-revoked');
    await checkAccessibility('keys (revoked)');

    await new Promise((done) => setTimeout(done, Math.max(0, revokedAt + CACHE_TTL_MS + 200 - Date.now())));
    expect(await callApi(apiKey)).toEqual({ status: 401, code: 'invalid-api-key' });
  });

  step('marks the current plan, Free, on the plans view', async () => {
    await page.getByRole('link', { name: 'Plans', exact: true }).click();
    await expectView('Plans');
    const free = page.getByRole('region', { name: /^Free/ });
    await free.getByText('Your plan').waitFor();
    expect(await page.getByText('Your plan', { exact: true }).count()).toBe(1);
    expect(await free.getByText('1,500 requests a month').count()).toBe(1);
    await shoot('10-plans');
    await checkAccessibility('plans');
  });

  step('signs out to the sign-in view', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectView('Sign in');
    await status('You are signed out.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(0);
    await shoot('11-signed-out');
  });

  it('met no page error, console error, CSP violation or failed request on the way, sign-out included', () => {
    expect({ pageErrors, consoleErrors, cspViolations, failedResponses }).toEqual({
      pageErrors: [],
      consoleErrors: [],
      cspViolations: [],
      failedResponses: [],
    });
  });
});
