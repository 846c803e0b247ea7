import type { Browser, Page } from 'playwright-core';
import { useTestApi } from '../../support/api-service';
import { launchChromium } from '../../support/chromium';

jest.setTimeout(60_000);

/** One request of the page as it went over the wire, read from the DevTools protocol's network events. */
interface OnTheWire {
  path: string;
  /** The status the server sent: 304 for a revalidation (the page itself then sees the cached 200). */
  status: number;
  encoding: string | undefined;
  /** Bytes received, headers included. */
  bytes: number;
}

/** Opens a page in a context of its own (an empty cache) that records what each navigation fetches. */
async function recordedPage(browser: Browser): Promise<{ page: Page; visit: (url: string) => Promise<OnTheWire[]> }> {
  const page = await (await browser.newContext()).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const paths = new Map<string, string>();
  const statuses = new Map<string, number>();
  const encodings = new Map<string, string | undefined>();
  const finished: { id: string; bytes: number }[] = [];
  cdp.on('Network.requestWillBeSent', (event) => paths.set(event.requestId, new URL(event.request.url).pathname));
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    statuses.set(event.requestId, event.statusCode);
    const header = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    encodings.set(event.requestId, header?.[1]);
  });
  cdp.on('Network.loadingFinished', (event) => finished.push({ id: event.requestId, bytes: event.encodedDataLength }));
  const visit = async (url: string) => {
    finished.length = 0;
    await page.goto(url, { waitUntil: 'networkidle' });
    return finished.map(({ id, bytes }) => ({
      path: paths.get(id) ?? '?',
      status: statuses.get(id) ?? 0,
      encoding: encodings.get(id),
      bytes,
    }));
  };
  return { page, visit };
}

/**
 * The page and the reference in Debian's Chromium: the browser's own Accept-Encoding gets compressed bodies it
 * decodes and shows, and a file the browser already holds is not sent again (304 to its If-None-Match).
 */
describe('the local server’s files in a real browser', () => {
  const ctx = useTestApi({ dashboard: true });
  let browser: Browser | undefined;
  const url = (path: string) => new URL(path, ctx.api.service.url).href;
  const opened = () => {
    if (!browser) throw new Error('the browser starts in beforeAll');
    return recordedPage(browser);
  };

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('receives the reference page, the dashboard and the document compressed, and shows them', async () => {
    const { page, visit } = await opened();
    const docs = await visit(url('/docs/'));
    expect(docs.find((r) => r.path === '/docs/')).toMatchObject({ status: 200, encoding: 'br' });
    expect(await page.locator('h1').first().isVisible()).toBe(true);

    const dashboard = await visit(url('/'));
    for (const file of ['/', '/app.js', '/app.css']) {
      expect(dashboard.find((r) => r.path === file)).toMatchObject({ path: file, status: 200, encoding: 'br' });
    }
    expect(await page.locator('.brand').isVisible()).toBe(true);

    const document = await page.request.get(url('/openapi.json'));
    expect(document.headers()['content-encoding']).toBe('br');
    expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('sends the favicon and the page’s files once: what the browser asks for again gets 304 and no body', async () => {
    const { visit } = await opened();
    const first = await visit(url('/'));
    // Chromium asks for the icon twice on a first visit; the second time with the ETag of the first answer.
    const icon = first.filter((r) => r.path === '/favicon.svg');
    expect(icon.filter((r) => r.status === 200)).toHaveLength(1);
    expect(icon.every((r) => r.status === 200 || r.status === 304)).toBe(true);

    const again = await visit(url('/'));
    const files = again.filter((r) => ['/', '/app.js', '/app.css', '/favicon.svg'].includes(r.path));
    expect(files.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/app.js', '/app.css']));
    for (const file of files)
      expect({ file: file.path, status: file.status }).toEqual({ file: file.path, status: 304 });
  });
});
