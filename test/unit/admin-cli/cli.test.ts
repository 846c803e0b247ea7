import { UsageError } from '../../../admin-cli/args';
import {
  type AdminIo,
  classifyError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_REFUSED,
  EXIT_USAGE,
  runAdmin,
} from '../../../admin-cli/cli';
import { StoreUnavailableError } from '../../../admin-cli/target';
import {
  InvalidAccountInputError,
  KeyLimitReachedError,
  UnknownAccountError,
} from '../../../lambdas/core/store/accounts-store';

function capture(): AdminIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    env: {},
    cwd: process.cwd(),
  };
  return io;
}

describe('admin CLI runner', () => {
  it('prints the usage on stdout and exits 0 for --help', async () => {
    const io = capture();
    expect(await runAdmin(['--help'], io)).toBe(EXIT_OK);
    expect(io.out).toContain('Usage: npm run --silent admin --');
    expect(io.err).toBe('');
  });

  it('exits 2 with one line on stderr and nothing on stdout for bad arguments', async () => {
    const io = capture();
    expect(await runAdmin(['account', 'create', '--plan', 'gold'], io)).toBe(EXIT_USAGE);
    expect(io.out).toBe('');
    expect(io.err.trimEnd().split('\n')).toEqual([
      "error: --plan must be one of free, pro, business, not 'gold' (see --help)",
    ]);
  });

  it('with --json also prints the reason as exactly one JSON object on stdout', async () => {
    const io = capture();
    expect(await runAdmin(['account', 'create', '--per-minute', 'many', '--plan', 'pro', '--json'], io)).toBe(
      EXIT_USAGE,
    );
    const lines = io.out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      error: "--per-minute must be a positive integer, not 'many'",
      code: 'usage',
    });
  });

  it('maps refusals to 1, bad arguments to 2 and everything else to 3, each with a stable code', () => {
    expect(classifyError(new UnknownAccountError('acc_x'))).toEqual({
      exit: EXIT_REFUSED,
      code: 'unknown-account',
      message: "Account 'acc_x' does not exist.",
    });
    expect(classifyError(new KeyLimitReachedError('acc_x', 'free', 1))).toMatchObject({
      exit: EXIT_REFUSED,
      code: 'key-limit-reached',
    });
    expect(classifyError(new UsageError('no command given'))).toMatchObject({ exit: EXIT_USAGE, code: 'usage' });
    expect(classifyError(new InvalidAccountInputError('email: the email address is not valid'))).toMatchObject({
      exit: EXIT_USAGE,
      code: 'invalid-input',
    });
    expect(classifyError(new StoreUnavailableError('held'))).toMatchObject({
      exit: EXIT_FAILURE,
      code: 'store-unavailable',
    });
  });

  it('reduces an unexpected multi-line error to its first line', () => {
    const error = new Error('\nconnect ECONNREFUSED 127.0.0.1:1\n    at stack frame');
    error.name = 'TimeoutError';
    expect(classifyError(error)).toEqual({
      exit: EXIT_FAILURE,
      code: 'store-error',
      message: 'TimeoutError: connect ECONNREFUSED 127.0.0.1:1',
    });
    expect(classifyError(new Error('first line\nsecond line')).message).toBe('first line');
  });
});
