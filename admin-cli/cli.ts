import { randomBytes } from 'node:crypto';
import { systemClock } from '../lambdas/core/domain/dates';
import { AccountsError, InvalidAccountInputError } from '../lambdas/core/store/accounts-store';
import { parseInvocation, USAGE, UsageError } from './args';
import { AdminAccountsStore, runCommand } from './commands';
import { type OpenOptions, openStore, StoreUnavailableError } from './target';

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
  if (error instanceof StoreUnavailableError) return { exit: EXIT_FAILURE, code: error.code, message: error.message };
  const name = (error as { name?: string } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  const line = oneLine(message);
  return { exit: EXIT_FAILURE, code: 'store-error', message: name && name !== 'Error' ? `${name}: ${line}` : line };
}

/** The admin CLI as a function: argv in, exit status out, all output through `io`. */
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

  let opened: Awaited<ReturnType<typeof openStore>> | undefined;
  try {
    opened = await openStore(invocation.target, io.open);
    const store = new AdminAccountsStore(opened.client, opened.tableName, {
      clock: systemClock,
      randomBytes: (n) => randomBytes(n),
    });
    const output = await runCommand(invocation.command, store);
    io.stdout(invocation.json ? `${JSON.stringify(output.json)}\n` : `${output.lines.join('\n')}\n`);
    return EXIT_OK;
  } catch (error) {
    return fail(classifyError(error));
  } finally {
    await opened?.close();
  }
}
