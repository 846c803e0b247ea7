import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshLoad } from '../../../bench/support/fresh-load';

describe('one fresh load of a bundle', () => {
  let dir: string;
  let small: string;
  let holding: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fresh-load-'));
    small = join(dir, 'small.js');
    writeFileSync(small, 'module.exports = { loaded: true };\n');
    // Keeps 4 MiB of 1 KB strings alive from its load on: more than V8's young generation starts with.
    holding = join(dir, 'holding.js');
    writeFileSync(
      holding,
      'module.exports = Array.from({ length: 4096 }, (_, i) => Buffer.alloc(1024, 97 + (i % 26)).toString());\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = { PATH: process.env.PATH };

  it('times the require and reports the size of the young generation it left', () => {
    const load = freshLoad(process.execPath, small, env);
    expect(load.wall).toBeGreaterThan(0);
    expect(load.cpu).toBeGreaterThanOrEqual(0);
    expect(load.youngBytes).toBeGreaterThanOrEqual(512 * 1024);
  });

  it('reports a larger young generation after a load that keeps more alive than it started with', () => {
    const bare = freshLoad(process.execPath, small, env);
    const held = freshLoad(process.execPath, holding, env);
    expect(held.youngBytes).toBeGreaterThan(bare.youngBytes);
  });

  it('throws with the child process error when the file cannot be loaded, rather than timing nothing', () => {
    expect(() => freshLoad(process.execPath, join(dir, 'missing.js'), env)).toThrow(/Cannot find module/);
  });
});
