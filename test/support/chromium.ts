import { accessSync, constants, readFileSync } from 'node:fs';
import type * as Axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';

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
