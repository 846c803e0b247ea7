import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../admin-cli/args';
import { BackupRefusedError, buildBackup, encodeBackup } from '../../../admin-cli/backup';
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
  TooManyKeysForPlanError,
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
    expect(classifyError(new StoreUnavailableError('No fxrates server is running', 'no-server'))).toMatchObject({
      exit: EXIT_FAILURE,
      code: 'no-server',
    });
    expect(classifyError(new TooManyKeysForPlanError('acc_x', 'free', 3, 1))).toEqual({
      exit: EXIT_REFUSED,
      code: 'too-many-active-keys',
      message:
        "Account 'acc_x' has 3 active keys; the Free plan allows 1. Revoke 2 of them (npm run admin -- key list --account acc_x) and change the plan again.",
    });
    expect(classifyError(new BackupRefusedError('backup-damaged', 'damaged'))).toMatchObject({
      exit: EXIT_REFUSED,
      code: 'backup-damaged',
    });
  });

  describe('with files and directories', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'fxrates-cli-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses a damaged backup before opening, let alone creating, the target store', async () => {
      const items = [{ pk: { S: 'USAGE#acc_a#2026-03' }, month_count: { N: '17' } }];
      const text = encodeBackup(buildBackup(items, { kind: 'local', data_dir: '/d' }, '2026-03-05T12:00:00Z'));
      writeFileSync(join(dir, 'b.json'), text.replace('"17"', '"71"'));
      const io = Object.assign(capture(), { cwd: dir });
      const target = join(dir, 'fresh');
      expect(await runAdmin(['restore', 'b.json', '--stopped', '--data-dir', target, '--json'], io)).toBe(EXIT_REFUSED);
      expect(JSON.parse(io.out)).toMatchObject({ code: 'backup-damaged', error: expect.stringContaining('SHA-256') });
      expect(existsSync(target)).toBe(false);
    });

    it('says when the backup file cannot be read, with exit 3', async () => {
      const io = Object.assign(capture(), { cwd: dir });
      expect(await runAdmin(['restore', 'missing.json', '--stopped', '--data-dir', join(dir, 'd')], io)).toBe(
        EXIT_FAILURE,
      );
      expect(io.err).toMatch(/^error: cannot read the backup .*missing\.json: ENOENT/);
    });

    it('exits 3 naming the data directory when no server runs there, and creates no directory', async () => {
      const io = Object.assign(capture(), { cwd: dir, open: { probeTimeoutMs: 200 } });
      expect(await runAdmin(['account', 'list', '--json'], io)).toBe(EXIT_FAILURE);
      expect(JSON.parse(io.out)).toMatchObject({
        code: 'no-server',
        error: expect.stringContaining(`No fxrates server is running with the data directory ${join(dir, '.data')}`),
      });
      expect(existsSync(join(dir, '.data'))).toBe(false);
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
