import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PLAN_IDS, PLANS } from '../../../lambdas/core/domain/plans';
import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { SOURCE_FACTS, SOURCE_SCHEDULES } from '../../../lambdas/core/domain/source-facts';
import { DEFAULT_CROSS_CHECK_TOLERANCE } from '../../../lambdas/core/domain/source-status';
import { CONTEXT_KEYS } from '../../../lib/config';

/** The README and the guides in docs/: what a newcomer reads first, and what it links to. */
const ROOT = join(__dirname, '..', '..', '..');
const README = join(ROOT, 'README.md');
const GUIDES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(ROOT, 'docs', name));
const read = (file: string) => readFileSync(file, 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings (outside code blocks) and its explicit `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!fenced && heading?.[1]) anchors.add(slug(heading[1]));
    for (const match of line.matchAll(/<a id="([^"]+)"><\/a>/g)) if (match[1]) anchors.add(match[1]);
  }
  return anchors;
}

/** Every relative Markdown link of a file: target file (absolute) and anchor. */
function linksOf(file: string): { text: string; target: string; anchor: string | undefined }[] {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [path, anchor] = href.split('#');
      return { text: href, target: path ? resolve(dirname(file), path) : file, anchor };
    });
}

describe('the README', () => {
  const readme = read(README);
  const lines = readme.split('\n');

  it('fits in 250 lines, the long guides living in docs/', () => {
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(GUIDES.length).toBeGreaterThanOrEqual(8);
  });

  it('holds on its first screen (60 lines) what it is, the prerequisites, the two commands and where to go next', () => {
    const firstScreen = lines.slice(0, 60).join('\n');
    for (const needed of [
      'npm ci && npm start',
      'npm ci && npm test',
      'Node.js 20',
      'Java 17',
      'Chromium',
      '## Where to go next',
      'docs/running-locally.md',
      'docs/deploying.md',
    ]) {
      expect(firstScreen).toContain(needed);
    }
  });

  it('states each plan as the plan table has it', () => {
    const row = (id: (typeof PLAN_IDS)[number]) => {
      const plan = PLANS[id];
      const history = plan.historyMonths === 0 ? 'none' : plan.historyMonths === 12 ? 'one year back' : 'since 1999';
      const keys = plan.maxActiveKeys === null ? 'unlimited' : String(plan.maxActiveKeys);
      const overflow = plan.overflowAllowed ? `${plan.overflowPercent} %` : 'none';
      const count = (n: number) => n.toLocaleString('en-US');
      return `| ${plan.name} | ${count(plan.monthlyLimit)} | ${plan.perMinute} | ${history} | ${keys} | ${overflow} |`;
    };
    for (const id of PLAN_IDS) expect(lines).toContain(row(id));
  });

  it('lists every source as GET /v1/sources describes it, in precedence order, and nothing else', () => {
    // The publishers' facts (domain/publishers.ts) and the ECB's and currency-api's, as the route shows them.
    const row = (id: (typeof SOURCE_IDS)[number]) => {
      const facts = SOURCE_FACTS[id];
      const { name, schedule } = SOURCE_SCHEDULES[id];
      return `| \`${id}\` | ${name} | ${facts.country ?? '—'} | ${facts.currency} | ${facts.rateKind} | ${schedule} |`;
    };
    const start = lines.indexOf('| Id | Publisher | Country | Quotes against | Kind of rate | When it publishes |');
    expect(start).toBeGreaterThan(60);
    const table = lines.slice(start + 2, lines.indexOf('', start));
    expect(table).toEqual(SOURCE_IDS.map(row));
    expect(readme).toContain(`a spread over ${DEFAULT_CROSS_CHECK_TOLERANCE * 100} %`);
  });

  it('names the command CI runs: .ci/run installs with npm ci and runs npm test, nothing else', () => {
    const script = read(join(ROOT, '.ci', 'run'))
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'));
    const npmCalls = script.flatMap((line) => [...line.matchAll(/\bnpm (\w+)/g)].map((m) => m[1]));
    expect(npmCalls).toEqual(['ci', 'test']);
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('the guides', () => {
  it.each([README, ...GUIDES].map((file) => [file.slice(ROOT.length + 1), file]))(
    '%s links only to files and anchors that exist',
    (_, file) => {
      for (const link of linksOf(file)) {
        expect({ link: link.text, exists: existsSync(link.target) }).toEqual({ link: link.text, exists: true });
        if (link.anchor && link.target.endsWith('.md')) {
          expect({ link: link.text, anchor: anchorsOf(read(link.target)).has(link.anchor) }).toEqual({
            link: link.text,
            anchor: true,
          });
        }
      }
    },
  );

  it('lists every context flag of the deploy configuration in the deploying guide', () => {
    const table = read(join(ROOT, 'docs', 'deploying.md'))
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1] ?? '');
    const documented = new Set(table.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1])));
    expect(CONTEXT_KEYS.filter((key) => !documented.has(key))).toEqual([]);
  });
});

describe('the pointers from the code to the docs', () => {
  const sources = execFileSync('git', ['ls-files', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.startsWith('test/'));
  const pointers = sources.flatMap((file) =>
    [...read(join(ROOT, file)).matchAll(/\/\/ Why: (docs\/[\w-]+\.md)#([\w-]+)/g)].map((m) => ({
      file,
      guide: m[1] ?? '',
      anchor: m[2] ?? '',
    })),
  );

  it('finds the one-line pointers the clever parts left at their sites', () => {
    expect(pointers.length).toBeGreaterThanOrEqual(10);
  });

  it('points only at sections that exist', () => {
    const missing = pointers.filter(
      ({ guide, anchor }) => !existsSync(join(ROOT, guide)) || !anchorsOf(read(join(ROOT, guide))).has(anchor),
    );
    expect(missing).toEqual([]);
  });
});
