import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadBundledRates } from '../../../bench/support/bundled-rates';
import { KEY_CREATION_LIMIT } from '../../../lambdas/core/dashboard/deps';
import { type LocalService, startLocalService } from '../../../local-server/service';
import {
  atBothSizes,
  expectNoAxeFinding,
  expectView,
  launchChromium,
  newContext,
  recordCspViolations,
  screenshotFolder,
} from '../../support/chromium';
import { type SignedIn, signUpAndSignIn } from '../../support/dashboard';

/**
 * What the overview, the plans view and the keys view say about the limits, in a real browser through the page:
 * the chart's requests reconciled with the month's "used" when quota checks are among them, a plans page that names
 * whom to ask (or says plainly that nobody is named, and what the operator sets), and a keys view that says when
 * the creation limit is used up instead of offering a button that fails. Photographed into
 * test-output/dashboard/limits-* at 1280×800 and 390×844, with axe-core at both.
 */

const SHOTS = screenshotFolder('dashboard');
const PASSWORD = 'Browser-Limits-2026';

jest.setTimeout(120_000);

describe('the limits as the dashboard states them, in a real browser', () => {
  const dataDirs: string[] = [];
  const services: LocalService[] = [];
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];

  const start = async (options: { upgradeContact?: string } = {}): Promise<LocalService> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-limits-browser-'));
    dataDirs.push(dataDir);
    const service = await startLocalService({
      dataDir,
      port: 0,
      dashboard: true,
      demoAccounts: false,
      loadRates: loadBundledRates,
      ...options,
    });
    services.push(service);
    return service;
  };

  const emulatorOf = (service: LocalService) => {
    if (!service.cognito) throw new Error('the local service did not start the dashboard');
    return service.cognito;
  };

  /** A new page signed in through the sign-in form as `person`, on the overview. */
  async function signedInPage(service: LocalService, person: SignedIn): Promise<Page> {
    if (!browser) throw new Error('the browser starts in beforeAll');
    const page = await (await newContext(browser)).newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await recordCspViolations(page, cspViolations);
    await page.goto(service.dashboardUrl ?? '');
    await expectView(page, 'Sign in');
    await page.getByLabel('E-mail address', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectView(page, 'Overview');
    return page;
  }

  async function open(page: Page, link: string, title: string): Promise<void> {
    await page.getByRole('link', { name: link, exact: true }).click();
    await expectView(page, title);
  }

  /** Photographs the page at both widths and fails on any axe-core violation at either. */
  const shootBoth = (page: Page, name: string) =>
    atBothSizes(page, SHOTS, `limits-${name}`, (size) => expectNoAxeFinding(page, `${name} (${size})`));

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    for (const service of services) await service.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('on a deployment without a contact for plan changes', () => {
    let service: LocalService;
    let person: SignedIn;
    let page: Page;
    let accountId: string;

    beforeAll(async () => {
      service = await start();
      person = await signUpAndSignIn(emulatorOf(service), {
        email: `limits-${Date.now()}@example.com`,
        password: PASSWORD,
      });
      ({ accountId } = await service.accounts.provisionOwnedAccount({ sub: person.sub, email: person.email }));
    });

    it("reconciles the chart's requests with the month's used when quota checks are among them", async () => {
      const { key } = await service.accounts.createKey(accountId, 'made by the operator');
      const call = async (path: string) =>
        (await fetch(new URL(path, service.url), { headers: { 'X-API-Key': key } })).status;
      for (let i = 0; i < 2; i++) expect(await call('rates/latest')).toBe(200);
      for (let i = 0; i < 3; i++) expect(await call('quota')).toBe(200);

      page = await signedInPage(service, person);
      await page.getByText('2 of 1,500 requests used', { exact: true }).waitFor();
      expect(await page.locator('p.summary').innerText()).toMatch(/^5 requests in /);
      const note = page.locator('.chart-note');
      expect(await note.innerText()).toBe(
        "Of the 5 requests in the chart, 2 count toward this month's quota. The other 3 were quota checks " +
          '(GET /v1/quota), which count toward the per-minute limit only.',
      );
      await shootBoth(page, 'overview-quota-checks');
    });

    it('says plainly that no contact is set, what the operator sets, and what to put in a request', async () => {
      await open(page, 'Plans', 'Plans');
      const how = page.getByRole('region', { name: 'Changing your plan' });
      await how.getByText('This service has not published a contact for plan changes.').waitFor();
      expect(await how.innerText()).toContain('Ask the person or team who gave you the address of this dashboard.');
      expect(await how.getByRole('code').allInnerTexts()).toEqual(['UPGRADE_CONTACT', 'upgradeContact']);
      expect(await how.getByText(person.email, { exact: true }).count()).toBe(1);
      expect(await how.getByRole('link').count()).toBe(0);
      await shootBoth(page, 'plans-no-contact');
    });

    it('says on the keys view when the creation limit is used up, instead of a button that fails', async () => {
      await service.accounts.setPlan(accountId, 'business');
      for (let i = 0; i < KEY_CREATION_LIMIT.max; i++) {
        await service.accounts.createKey(accountId, `burst ${i}`, { creationLimit: KEY_CREATION_LIMIT });
      }
      await open(page, 'API keys', 'API keys');
      await page.getByRole('row', { name: /burst 9/ }).waitFor();
      const create = page.getByRole('button', { name: 'Create key' });
      expect(await create.isDisabled()).toBe(true);
      const reason = 'At most 10 keys can be created in any 60 minutes; the next can be created in 60 minutes.';
      await page.getByText(reason, { exact: true }).waitFor();
      expect(await create.getAttribute('aria-describedby')).toContain(
        await page.getByText(reason, { exact: true }).getAttribute('id'),
      );
      await shootBoth(page, 'keys-creation-limit');
    });
  });

  it('links the configured contact on the plans view', async () => {
    const service = await start({ upgradeContact: 'plans@example.com' });
    const person = await signUpAndSignIn(emulatorOf(service), {
      email: `limits-contact-${Date.now()}@example.com`,
      password: PASSWORD,
    });
    const page = await signedInPage(service, person);
    await open(page, 'Plans', 'Plans');
    const how = page.getByRole('region', { name: 'Changing your plan' });
    const link = how.getByRole('link', { name: 'plans@example.com' });
    expect(await link.getAttribute('href')).toBe('mailto:plans@example.com');
    expect(await how.getByText('has not published a contact').count()).toBe(0);
    await shootBoth(page, 'plans-contact');
  });

  it('met no page error or CSP violation on the way', () => {
    expect({ pageErrors, cspViolations }).toEqual({ pageErrors: [], cspViolations: [] });
  });
});
