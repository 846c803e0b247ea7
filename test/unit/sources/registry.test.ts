import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { SOURCE_SCHEDULES } from '../../../lambdas/core/domain/source-facts';
import { nextUpdateAt } from '../../../lambdas/core/domain/source-schedule';
import { DEFAULT_SOURCE_URLS } from '../../../lambdas/core/ingest/fetchers';
import { SOURCE_MODULES } from '../../../lambdas/core/sources/registry';
import { bundledFiles, readBundledSource } from '../../../local-server/bundled-data';

const plan = { urls: DEFAULT_SOURCE_URLS, timeoutMs: 1000, mode: 'scheduled' as const };
const now = Date.parse('2026-03-11T12:00:00Z');

describe('the source registry', () => {
  it('has one module for each source id and no other', () => {
    expect(Object.keys(SOURCE_MODULES).sort()).toEqual([...SOURCE_IDS].sort());
    expect(Object.keys(SOURCE_SCHEDULES).sort()).toEqual([...SOURCE_IDS].sort());
  });

  const files = bundledFiles();
  describe.each(SOURCE_IDS)('%s', (id) => {
    const module = SOURCE_MODULES[id];

    it('declares its name, schedule and next publication', () => {
      expect(SOURCE_SCHEDULES[id].name).toMatch(/\S/);
      expect(SOURCE_SCHEDULES[id].schedule).toMatch(/\S/);
      expect(nextUpdateAt([id], now)).toBeGreaterThan(now);
    });

    it('declares its fetchers under its own id', () => {
      expect(module.id).toBe(id);
      expect(module.fetcher(plan).id).toBe(id);
      expect(module.backfill(plan, { today: '2026-03-11' }).id).toBe(id);
    });

    it('declares where its bundled data is, how it reads and how the start banner names it', () => {
      const { bundled } = module;
      for (const part of [bundled.dir, bundled.label, bundled.unit, bundled.note]) expect(part).toMatch(/\S/);
      expect(typeof bundled.parse).toBe('function');
      const keys = SOURCE_IDS.map((other) => SOURCE_MODULES[other].bundled.key);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('has bundled data in data/ that parses to days of this source', () => {
      const last = files[id].at(-1);
      expect(last).toBeDefined();
      const days = readBundledSource(files, id, last?.date ? { from: last.date, to: last.date } : {});
      expect(days.length).toBeGreaterThan(0);
      expect(new Set(days.map((day) => day.source))).toEqual(new Set([id]));
    });
  });
});
