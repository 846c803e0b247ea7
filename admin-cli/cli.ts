import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { systemClock } from '../lambdas/core/domain/dates';
import { AccountsError, InvalidAccountInputError } from '../lambdas/core/store/accounts-store';
import { type AdminCommand, parseInvocation, USAGE } from './args';
import {
  BackupRefusedError,
  buildBackup,
  decodeBackup,
  describeCounts,
  encodeBackup,
  restoreItems,
  scanItems,
  writeFileWhole,
} from './backup';
import { AdminAccountsStore, type CommandOutput, runCommand } from './commands';
import { type OpenedStore, type OpenOptions, openStore, StoreUnavailableError } from './target';
import { UsageError } from './usage-error';

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;
export const EXIT_FAILURE = 3;

export interface AdminIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  open?: OpenOptions;
  /** All of stdin, for `restore -`. */
  stdin?: () => Promise<string>;
  /** The time a backup records (default: now). */
  now?: () => Date;
}

interface Failure {
  exit: number;
  code: string;
  message: string;
}

/** One line whatever the error: SDK and system messages may span several. */
function oneLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? 'unexpected failure';
  return line.trim();
}

export function classifyError(error: unknown): Failure {
  if (error instanceof UsageError) return { exit: EXIT_USAGE, code: error.code, message: error.message };
  // The store validates what the parser leaves to it (email, key name): still bad arguments to the caller.
  if (error instanceof InvalidAccountInputError) return { exit: EXIT_USAGE, code: error.code, message: error.message };
  if (error instanceof AccountsError) return { exit: EXIT_REFUSED, code: error.code, message: error.message };
  if (error instanceof BackupRefusedError) return { exit: EXIT_REFUSED, code: error.code, message: error.message };
  if (error instanceof StoreUnavailableError) return { exit: EXIT_FAILURE, code: error.code, message: error.message };
  if (error instanceof FileError) return { exit: EXIT_FAILURE, code: 'file-error', message: error.message };
  const name = (error as { name?: string } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  const line = oneLine(message);
  return { exit: EXIT_FAILURE, code: 'store-error', message: name && name !== 'Error' ? `${name}: ${line}` : line };
}

/** A backup file that cannot be read or written; exit status 3. */
class FileError extends Error {
  constructor(action: string, file: string, cause: unknown) {
    const reason = (cause as { message?: unknown } | null)?.message;
    super(`cannot ${action} ${file}: ${typeof reason === 'string' ? reason : String(cause)}`);
    this.name = 'FileError';
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const withTime = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function backup(file: string, opened: OpenedStore, io: AdminIo): Promise<CommandOutput & { notice?: string }> {
  const items = await scanItems(opened.raw, opened.tableName);
  const made = buildBackup(items, opened.source, withTime((io.now ?? (() => new Date()))()));
  const text = encodeBackup(made);
  const summary = {
    file,
    created_at: made.created_at,
    item_count: made.item_count,
    ...made.counts,
    sha256: made.sha256,
  };
  const line = `Backed up ${describeCounts(made.counts)} (${plural(made.item_count, 'item')}) from ${opened.description} to ${file === '-' ? 'stdout' : file}; sha256 ${made.sha256}.`;
  if (file === '-') return { json: summary, lines: [text.trimEnd()], notice: line };
  try {
    await writeFileWhole(file, text);
  } catch (error) {
    throw new FileError('write the backup to', file, error);
  }
  return { json: summary, lines: [line] };
}

async function readBackup(file: string, io: AdminIo): Promise<string> {
  try {
    if (file === '-') {
      if (!io.stdin) throw new Error('no stdin');
      return await io.stdin();
    }
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError('read the backup', file === '-' ? 'stdin' : file, error);
  }
}

/** Runs the command on the opened store; backup and restore work on its raw items, the rest on its accounts. */
async function execute(
  command: AdminCommand,
  opened: OpenedStore,
  io: AdminIo,
  restoring?: ReturnType<typeof decodeBackup>,
) {
  if (command.kind === 'backup') return backup(command.file, opened, io);
  if (command.kind === 'restore' && restoring) {
    const result = await restoreItems(opened.raw, opened.tableName, restoring.items, {
      replace: command.replace,
      description: opened.description,
    });
    const { source } = restoring;
    const from = source.kind === 'local' ? source.data_dir : `${source.table} in ${source.region}`;
    const label = command.file === '-' ? 'stdin' : command.file;
    const replaced = command.replace ? `; ${plural(result.replaced, 'existing item')} replaced` : '';
    return {
      json: {
        file: command.file,
        ...result.counts,
        items_written: result.itemsWritten,
        replaced: result.replaced,
        active_keys_recounted: result.recounted,
        active_keys_corrected: result.corrected,
        backup_created_at: restoring.created_at,
      },
      lines: [
        `Restored ${describeCounts(result.counts)} from ${label} (backed up ${restoring.created_at} from ${from}) into ${opened.description}${replaced}; active keys recounted for ${plural(result.recounted, 'account')}, ${result.corrected} corrected.`,
      ],
    };
  }
  const store = new AdminAccountsStore(opened.client, opened.tableName, {
    clock: systemClock,
    randomBytes: (n) => randomBytes(n),
  });
  return runCommand(command, store);
}

export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (failure: Failure): number => {
    io.stderr(`error: ${failure.message}${failure.exit === EXIT_USAGE ? ' (see --help)' : ''}\n`);
    if (json) io.stdout(`${JSON.stringify({ error: failure.message, code: failure.code })}\n`);
    return failure.exit;
  };

  let invocation: ReturnType<typeof parseInvocation>;
  try {
    invocation = parseInvocation(argv, io.env, io.cwd);
  } catch (error) {
    return fail(classifyError(error));
  }
  if (invocation.kind === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }

  const { command } = invocation;
  let opened: OpenedStore | undefined;
  try {
    // A backup to restore is read and checked whole before any store is opened, let alone created.
    const restoring =
      command.kind === 'restore'
        ? decodeBackup(await readBackup(command.file, io), command.file === '-' ? 'read from stdin' : command.file)
        : undefined;
    opened = await openStore(invocation.target, { ...io.open, createStore: command.kind === 'restore' });
    const output: CommandOutput & { notice?: string } = await execute(command, opened, io, restoring);
    io.stdout(invocation.json ? `${JSON.stringify(output.json)}\n` : `${output.lines.join('\n')}\n`);
    if (output.notice) io.stderr(`${output.notice}\n`);
    return EXIT_OK;
  } catch (error) {
    return fail(classifyError(error));
  } finally {
    await opened?.close();
  }
}
