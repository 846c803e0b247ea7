/**
 * The data directory holds key hashes, usage and verification codes: only its owner may read it. It is created
 * 0700, the server writes its files 0600 (bin/serve.ts sets the umask to 077, which LevelDB's and the Cognito
 * emulator's files follow), and a directory made by an earlier version (755, files 644) is tightened on start.
 *
 * Tightening touches only what fxrates made: the entries it keeps in the directory (and everything under its own
 * folders), and the directory itself only when nothing else is in it. FXRATES_DATA_DIR pointed at a home directory
 * or at /tmp must not change that directory's permissions.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Creates the directory (and missing parents) with mode 0700. */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}

export interface Tightened {
  /** Entries whose group and other permission bits were removed. */
  changed: number;
  /** The directory's own mode before, when it was changed (e.g. "755"). */
  directoryWas?: string;
  /** The directory's mode, when it lets others in but was left alone because it holds files fxrates did not make. */
  leftAlone?: string;
}

function modeOf(path: string): { mode: number; directory: boolean; link: boolean } | undefined {
  try {
    const stats = lstatSync(path);
    return { mode: stats.mode & 0o7777, directory: stats.isDirectory(), link: stats.isSymbolicLink() };
  } catch {
    return undefined;
  }
}

/** Removes group and other bits; false when there were none, or the entry is not this user's to change. */
function tighten(path: string, mode: number): boolean {
  if ((mode & 0o077) === 0) return false;
  try {
    chmodSync(path, mode & ~0o077);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the group and other permission bits of the entries of `dir` that `own` names, of everything under them,
 * and of `dir` itself when every entry in it is one of them (symbolic links are left alone, and entries this user
 * may not change are skipped).
 */
export function tightenPermissions(dir: string, own: (name: string) => boolean): Tightened {
  let changed = 0;
  const visit = (path: string) => {
    const stats = modeOf(path);
    if (!stats || stats.link) return;
    if (tighten(path, stats.mode)) changed++;
    if (!stats.directory) return;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) visit(join(path, name));
  };
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return { changed };
  }
  for (const name of names.filter(own)) visit(join(dir, name));
  const top = modeOf(dir);
  if (!top || (top.mode & 0o077) === 0) return { changed };
  if (!names.every(own)) return { changed, leftAlone: top.mode.toString(8) };
  if (!tighten(dir, top.mode)) return { changed };
  return { changed: changed + 1, directoryWas: top.mode.toString(8) };
}

/** The one-line notice for what `tightenPermissions` changed or left; undefined when there is nothing to say. */
export function tightenedNotice(dir: string, tightened: Tightened): string | undefined {
  if (tightened.leftAlone) {
    return `${dir} holds files fxrates did not make, so its own permissions (${tightened.leftAlone}) were left as they are; fxrates' own files and folders in it are readable by you alone.`;
  }
  if (tightened.changed === 0) return undefined;
  const what = tightened.directoryWas
    ? `${dir} (it was ${tightened.directoryWas}) and what fxrates keeps in it`
    : `what fxrates keeps in ${dir}`;
  const count =
    tightened.changed === 1
      ? '1 entry that other users could read is'
      : `${tightened.changed} entries that other users could read are`;
  return `Tightened the permissions of ${what}: ${count} now readable by you alone.`;
}
