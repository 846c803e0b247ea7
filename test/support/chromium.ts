import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as Axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's chromium package driven by playwright-core, for every browser test: nothing is downloaded, and a missing
 * browser fails the suite instead of skipping it.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    throw new Error(
      `No Chromium at ${CHROMIUM}. The browser tests need Debian's chromium package: install it with ` +
        '`sudo apt-get install -y chromium` or `npm run setup:browser`, or set CHROMIUM_PATH to another Chromium.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now, and how many checks passed (a run that checked nothing would
 * report no violation too). Injected over the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<{ findings: AxeFinding[]; passed: number }> {
  if ((await page.evaluate('typeof axe')) === 'undefined') await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe } = globalThis as unknown as { axe: typeof Axe };
    const results = await axe.run({ resultTypes: ['violations'] });
    return {
      passed: results.passes.length,
      findings: results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      })),
    };
  });
}

/** Records the page's CSP violations: a binding reaches Node without running script the page's CSP would judge. */
export async function recordCspViolations(page: Page, into: string[]): Promise<void> {
  await page.exposeBinding('reportCspViolation', (_source, text: string) => {
    into.push(text);
  });
  await page.addInitScript(() => {
    type Violation = { violatedDirective: string; blockedURI: string };
    const scope = globalThis as unknown as {
      reportCspViolation: (text: string) => void;
      addEventListener: (type: string, listener: (event: Violation) => void) => void;
    };
    scope.addEventListener('securitypolicyviolation', (event) => {
      scope.reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
type Size = { width: number; height: number };

/** A context as every browser test uses it: British English in UTC at `viewport`, 10 s for any wait. */
export async function newContext(browser: Browser, viewport: Size = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  return context;
}

/** The folder under test-output/ a test photographs into, created if missing. */
export function screenshotFolder(name: string): string {
  const folder = join(resolve(__dirname, '../..'), 'test-output', name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

export async function screenshot(page: Page, folder: string, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage });
}

/** Waits until the page has drawn two more frames, so whatever it was asked to draw before is on the screen. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}

/** Resizes the page and waits two frames, so a redraw the resize asked for (the chart's) has happened. */
export async function resize(page: Page, size: Size): Promise<void> {
  await page.setViewportSize(size);
  await nextFrames(page);
}

/**
 * Photographs the page at the desktop and the phone size, as `<name>-desktop.png` and `<name>-phone.png`, runs
 * `check` at each, and leaves the page at the desktop size.
 */
export async function atBothSizes(
  page: Page,
  folder: string,
  name: string,
  check: (size: 'desktop' | 'phone') => Promise<void> = async () => undefined,
): Promise<void> {
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await resize(page, size);
    await screenshot(page, folder, `${name}-${label}`);
    await check(label);
  }
  await page.setViewportSize(DESKTOP);
}

/** Fails on any axe-core finding, naming `where`, or on a run that checked next to nothing. */
export async function expectNoAxeFinding(page: Page, where: string): Promise<void> {
  const { findings, passed } = await axeViolations(page);
  expect(passed).toBeGreaterThan(10);
  expect({ where, findings }).toEqual({ where, findings: [] });
}

/** Waits for the dashboard view whose h1 is `title`; on a timeout, says what the page's alert region holds. */
export async function expectView(page: Page, title: string): Promise<void> {
  try {
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
  } catch (error) {
    const alert = await page
      .locator('#alert')
      .textContent()
      .catch(() => null);
    throw new Error(`the view "${title}" did not show (alert: ${JSON.stringify(alert)}): ${String(error)}`);
  }
}

/**
 * Asks `probe` every 50 ms until it answers something other than undefined, and returns that. Polled from Node: the
 * pages' CSP forbids the eval a waitForFunction would run in them.
 */
export async function poll<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The verification codes the local server's Cognito emulator wrote to `file` for `address`, oldest first. */
export function deliveredCodes(file: string | undefined, address: string): string[] {
  if (!file) throw new Error('the local server keeps no codes file');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { email: string; code: string })
    .filter((entry) => entry.email === address)
    .map((entry) => entry.code);
}
