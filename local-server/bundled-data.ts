/**
 * The upstream data bundled in the repository (`data/`), for the offline default and offline backfills: each
 * registered source's files, in the exact formats the live sources serve, where its module says they are.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SOURCE_IDS, type SourceId } from '../lambdas/core/domain/rates';
import { SOURCE_MODULES } from '../lambdas/core/sources/registry';
import type { SourceDay } from '../lambdas/core/sources/source-day';
import type { BundledData } from '../lambdas/core/sources/source-module';

/** `data/` at the repository root. */
export const DEFAULT_DATA_DIR = resolve(import.meta.dirname, '..', 'data');

/** Each source's bundled files, in name order; a day-per-file source's files carry their day. */
export type BundledFiles = Record<SourceId, { path: string; date?: string }[]>;

function filesOf(dataDir: string, bundled: BundledData): { path: string; date?: string }[] {
  const dir = join(dataDir, bundled.dir);
  const pattern = bundled.file;
  if (typeof pattern === 'string') {
    return bundled.optional && !existsSync(join(dir, pattern)) ? [] : [{ path: join(dir, pattern) }];
  }
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // A data folder without this source's files is still usable.
  }
  return names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .flatMap(({ name, match }) => (match?.[1] ? [{ date: match[1], path: join(dir, name) }] : []))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

export function bundledFiles(dataDir = DEFAULT_DATA_DIR): BundledFiles {
  return Object.fromEntries(SOURCE_IDS.map((id) => [id, filesOf(dataDir, SOURCE_MODULES[id].bundled)])) as BundledFiles;
}

/** A digest of the bundled files' bytes: the local start skips reloading when it matches the last load. */
export function bundledFingerprint(files: BundledFiles): string {
  const hash = createHash('sha256');
  for (const { path } of SOURCE_IDS.flatMap((id) => files[id])) {
    hash.update(basename(path));
    hash.update(readFileSync(path));
    // A central bank's source.json names its recorded answers, which sit beside it.
    if (basename(path) === 'source.json') {
      for (const name of readdirSync(dirname(path)).sort())
        if (name !== 'source.json') hash.update(readFileSync(join(dirname(path), name)));
    }
  }
  return hash.digest('hex').slice(0, 32);
}

/** Each source's bundled days, under its module's `bundled.key`. */
export type BundledDays = Record<BundledData['key'], SourceDay[]>;

/** Reads and parses the bundled data of one source, optionally limited to days in `[from, to]`. */
export function readBundledSource(
  files: BundledFiles,
  id: SourceId,
  range: { from?: string; to?: string } = {},
): SourceDay[] {
  const inRange = (date: string) => (!range.from || date >= range.from) && (!range.to || date <= range.to);
  const { bundled } = SOURCE_MODULES[id];
  return files[id]
    .filter((file) => file.date === undefined || inRange(file.date))
    .flatMap((file) =>
      bundled.parse({
        ...file,
        bytes: () => readFileSync(file.path),
        text: () => readFileSync(file.path, 'utf8'),
        sibling: (name: string) => readFileSync(join(dirname(file.path), name)),
      }),
    )
    .filter((day) => inRange(day.date));
}

/** Reads and parses the bundled data, optionally limited to days in `[from, to]`. */
export function readBundledDays(files: BundledFiles, range: { from?: string; to?: string } = {}): BundledDays {
  return Object.fromEntries(
    SOURCE_IDS.map((id) => [SOURCE_MODULES[id].bundled.key, readBundledSource(files, id, range)]),
  ) as BundledDays;
}
