import { resolve } from 'node:path';
import { type Invocation, parseInvocation, USAGE, UsageError } from '../../../admin-cli/args';

const CWD = resolve('/srv/fxrates');
const parse = (argv: string[], env: Record<string, string | undefined> = {}): Invocation =>
  parseInvocation(argv, env, CWD);
const run = (argv: string[], env: Record<string, string | undefined> = {}) => {
  const invocation = parse(argv, env);
  if (invocation.kind !== 'run') throw new Error(`expected a command, got ${invocation.kind}`);
  return invocation;
};
const usageError = (argv: string[], env: Record<string, string | undefined> = {}): string => {
  try {
    parse(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('admin CLI arguments', () => {
  describe('account create', () => {
    it('parses a plan with defaults: verified, no overrides, local target, human output', () => {
      const invocation = run(['account', 'create', '--plan', 'pro']);
      expect(invocation.command).toEqual({
        kind: 'account-create',
        input: { plan: 'pro', verified: true, overrides: {} },
      });
      expect(invocation.json).toBe(false);
      expect(invocation.target).toEqual({ kind: 'local', dataDir: resolve(CWD, '.data'), stopped: false });
    });

    it('parses every option, in either --name value or --name=value form', () => {
      const { command, json } = run([
        'account',
        'create',
        '--plan=business',
        '--email',
        'ops@example.com',
        '--monthly-limit',
        '200000',
        '--per-minute=500',
        '--overflow-percent',
        '25',
        '--unverified',
        '--json',
      ]);
      expect(json).toBe(true);
      expect(command).toEqual({
        kind: 'account-create',
        input: {
          plan: 'business',
          email: 'ops@example.com',
          verified: false,
          overrides: { monthlyLimit: 200000, perMinute: 500, overflowPercent: 25, overflowAllowed: true },
        },
      });
    });

    it('turns --no-overflow into a disallowed overflow', () => {
      expect(run(['account', 'create', '--plan', 'pro', '--no-overflow']).command).toEqual({
        kind: 'account-create',
        input: { plan: 'pro', verified: true, overrides: { overflowAllowed: false } },
      });
    });

    it('accepts a plan in any letter case', () => {
      expect(run(['account', 'create', '--plan', 'Free']).command).toMatchObject({ input: { plan: 'free' } });
    });

    it('accepts 0 and 100 as overflow percentages', () => {
      for (const percent of ['0', '100']) {
        expect(run(['account', 'create', '--plan', 'pro', '--overflow-percent', percent]).command).toMatchObject({
          input: { overrides: { overflowPercent: Number(percent), overflowAllowed: true } },
        });
      }
    });

    // Each command line split at spaces, as a shell would.
    const refused: [string, string][] = [
      ['account create', 'account create needs --plan'],
      ['account create --plan gold', "--plan must be one of free, pro, business, not 'gold'"],
      ['account create --plan', '--plan needs a value'],
      ['account create --plan --json', '--plan needs a value'],
      ['account create --plan pro --monthly-limit 0', "--monthly-limit must be a positive integer, not '0'"],
      ['account create --plan pro --monthly-limit -5', "--monthly-limit must be a positive integer, not '-5'"],
      ['account create --plan pro --monthly-limit 1e3', "--monthly-limit must be a positive integer, not '1e3'"],
      ['account create --plan pro --per-minute 2.5', "--per-minute must be a positive integer, not '2.5'"],
      ['account create --plan pro --per-minute 99999999999999999999', '--per-minute must be a positive integer'],
      ['account create --plan pro --overflow-percent 101', '--overflow-percent must be an integer from 0 to 100'],
      ['account create --plan pro --overflow-percent ten', '--overflow-percent must be an integer from 0 to 100'],
      [
        'account create --plan pro --overflow-percent 5 --no-overflow',
        'give either --overflow-percent or --no-overflow, not both',
      ],
      ['account create --plan pro --plan free', '--plan is given more than once'],
      ['account create --plan pro --unverified=yes', '--unverified takes no value'],
      ['account create --plan pro --account acc_1', '--account does not apply to account create'],
      ['account create --plan pro extra', "unexpected argument 'extra' for account create"],
    ];
    it.each(refused.map(([line, message]) => [line.split(' '), message]))('refuses %j: %s', (argv, message) => {
      expect(usageError(argv)).toContain(message);
    });
  });

  describe('account state and plan', () => {
    it.each([
      ['suspend', 'account-suspend'],
      ['resume', 'account-resume'],
      ['verify', 'account-verify'],
      ['show', 'account-show'],
    ])('parses account %s ID', (verb, kind) => {
      expect(run(['account', verb, 'acc_abc', '--json']).command).toEqual({ kind, accountId: 'acc_abc' });
    });

    it('parses account list, which takes no argument, with or without --json', () => {
      expect(run(['account', 'list'])).toMatchObject({ command: { kind: 'account-list' }, json: false });
      expect(run(['account', 'list', '--json'])).toMatchObject({ command: { kind: 'account-list' }, json: true });
      expect(run(['account', 'list', '--accounts-table', 'T', '--region', 'eu-west-1']).target).toEqual({
        kind: 'aws',
        tableName: 'T',
        region: 'eu-west-1',
      });
    });

    it('parses account set-plan ID PLAN', () => {
      expect(run(['account', 'set-plan', 'acc_abc', 'business']).command).toEqual({
        kind: 'account-set-plan',
        accountId: 'acc_abc',
        plan: 'business',
      });
    });

    it.each([
      [['account', 'suspend'], 'account suspend needs ID'],
      [['account', 'set-plan', 'acc_abc'], 'account set-plan needs PLAN'],
      [['account', 'set-plan'], 'account set-plan needs ID PLAN'],
      [['account', 'set-plan', 'acc_abc', 'platinum'], "PLAN must be one of free, pro, business, not 'platinum'"],
      [['account', 'verify', 'a', 'b'], "unexpected argument 'b' for account verify"],
      [['account', 'verify', ''], 'ID must not be empty'],
      [['account', 'list', 'acc_abc'], "unexpected argument 'acc_abc' for account list"],
      [['account', 'list', '--plan', 'pro'], '--plan does not apply to account list'],
      [['account', 'show', '--json'], 'account show needs ID'],
      [['account', 'delete', 'acc_abc'], "unknown command 'account delete'"],
      [['account'], 'account needs a verb'],
    ])('refuses %j: %s', (argv, message) => {
      expect(usageError(argv)).toContain(message);
    });
  });

  describe('keys', () => {
    it('parses key create with and without a name', () => {
      expect(run(['key', 'create', '--account', 'acc_abc']).command).toEqual({
        kind: 'key-create',
        accountId: 'acc_abc',
      });
      expect(run(['key', 'create', '--account', 'acc_abc', '--name', 'ci runner']).command).toEqual({
        kind: 'key-create',
        accountId: 'acc_abc',
        name: 'ci runner',
      });
    });

    it('takes every argument after -- as a positional, and a dash-led value after a string option', () => {
      expect(run(['key', 'revoke', '--', '-k']).command).toEqual({ kind: 'key-revoke', keyId: '-k' });
      expect(run(['key', 'create', '--account', '-a', '--name=--x']).command).toEqual({
        kind: 'key-create',
        accountId: '-a',
        name: '--x',
      });
    });

    it('parses key list and key revoke', () => {
      expect(run(['key', 'list', '--account', 'acc_abc']).command).toEqual({ kind: 'key-list', accountId: 'acc_abc' });
      expect(run(['key', 'revoke', 'key_abc']).command).toEqual({ kind: 'key-revoke', keyId: 'key_abc' });
    });

    it.each([
      [['key', 'create'], 'key create needs --account'],
      [['key', 'create', '--account='], 'key create needs --account'],
      [['key', 'list', '--account', 'acc_abc', '--name', 'x'], '--name does not apply to key list'],
      [['key', 'revoke'], 'key revoke needs KEY_ID'],
      [['key', 'rotate', 'key_abc'], "unknown command 'key rotate'"],
      [['keys', 'list'], "unknown command 'keys'"],
      [[], 'no command given'],
      [['key', 'list', '--acount', 'acc_abc'], 'unknown option --acount'],
      [['key', 'list', '-x', 'acc_abc'], 'unknown option -x'],
      [['key', 'list', '-hx'], 'unknown option -hx'],
      [['key', 'list', '--account', 'a', '--help', '--help'], '--help is given more than once'],
    ])('refuses %j: %s', (argv, message) => {
      expect(usageError(argv)).toContain(message);
    });
  });

  describe('backup and restore', () => {
    it('parses backup FILE with the path made absolute against the working directory', () => {
      expect(run(['backup', 'backups/accounts.json']).command).toEqual({
        kind: 'backup',
        file: resolve(CWD, 'backups/accounts.json'),
      });
      expect(run(['backup', '/var/backups/a.json', '--json'])).toMatchObject({
        command: { kind: 'backup', file: resolve('/var/backups/a.json') },
        json: true,
      });
    });

    it('keeps - as stdout for backup and stdin for restore', () => {
      expect(run(['backup', '-']).command).toEqual({ kind: 'backup', file: '-' });
      expect(run(['restore', '-']).command).toEqual({ kind: 'restore', file: '-', replace: false });
    });

    it('parses restore FILE, with --replace only when given', () => {
      expect(run(['restore', 'a.json']).command).toEqual({
        kind: 'restore',
        file: resolve(CWD, 'a.json'),
        replace: false,
      });
      expect(run(['restore', '--replace', 'a.json', '--json']).command).toEqual({
        kind: 'restore',
        file: resolve(CWD, 'a.json'),
        replace: true,
      });
    });

    it('takes a backup against AWS with --accounts-table', () => {
      expect(run(['backup', 'a.json', '--accounts-table', 'T', '--region', 'eu-west-1']).target).toEqual({
        kind: 'aws',
        tableName: 'T',
        region: 'eu-west-1',
      });
    });

    it.each([
      [['backup'], 'backup needs FILE'],
      [['restore'], 'restore needs FILE'],
      [['backup', ''], 'FILE must not be empty'],
      [['backup', 'a.json', 'b.json'], "unexpected argument 'b.json' for backup"],
      [['backup', 'a.json', '--replace'], '--replace does not apply to backup'],
      [['account', 'set-plan', 'acc_1', 'free', '--replace'], '--replace does not apply to account set-plan'],
      [['backup', '-', '--json'], 'backup - writes the backup itself to stdout; --json does not apply'],
      [['backups', 'a.json'], "unknown command 'backups'; use account, key, backup or restore"],
    ])('refuses %j: %s', (argv, message) => {
      expect(usageError(argv)).toBe(message);
    });
  });

  describe('help', () => {
    it('answers --help and -h anywhere, even beside other mistakes', () => {
      expect(parse(['--help'])).toEqual({ kind: 'help' });
      expect(parse(['key', 'create', '-h'])).toEqual({ kind: 'help' });
    });

    it('documents every command, the JSON error object and the exit statuses', () => {
      for (const text of [
        'account create --plan free|pro|business',
        'account list',
        'account show ID',
        '--overflow-percent P | --no-overflow',
        'account suspend ID',
        'account resume ID',
        'account verify ID',
        'account set-plan ID',
        'key create --account ID [--name N]',
        'key list --account ID',
        'key revoke KEY_ID',
        'backup FILE',
        'restore FILE [--replace]',
        '--stopped',
        'refused while the account holds more active keys than the plan allows',
        '{"error": "<reason>", "code": "<code>"}',
        '2 bad arguments',
      ]) {
        expect(USAGE).toContain(text);
      }
    });
  });

  describe('store target', () => {
    it('uses FXRATES_DATA_DIR, resolved against the working directory', () => {
      expect(run(['key', 'revoke', 'k'], { FXRATES_DATA_DIR: 'state' }).target).toEqual({
        kind: 'local',
        dataDir: resolve(CWD, 'state'),
        stopped: false,
      });
    });

    it('lets --data-dir win over FXRATES_DATA_DIR', () => {
      expect(run(['key', 'revoke', 'k', '--data-dir', '/var/fx'], { FXRATES_DATA_DIR: 'state' }).target).toEqual({
        kind: 'local',
        dataDir: resolve('/var/fx'),
        stopped: false,
      });
    });

    it('marks a local target --stopped, for any command, and refuses --stopped with a table on AWS', () => {
      expect(run(['account', 'list', '--stopped', '--data-dir', 'old']).target).toEqual({
        kind: 'local',
        dataDir: resolve(CWD, 'old'),
        stopped: true,
      });
      expect(run(['restore', 'b.json', '--stopped']).target).toMatchObject({ stopped: true });
      expect(usageError(['account', 'list', '--stopped', '--accounts-table', 'T', '--region', 'r'])).toBe(
        '--stopped does not apply to a table on AWS',
      );
      expect(usageError(['account', 'list', '--stopped=yes'])).toBe('--stopped takes no value');
    });

    it('targets a table on AWS from the options or from the environment', () => {
      expect(run(['key', 'revoke', 'k', '--accounts-table', 'Accounts-1', '--region', 'eu-central-1']).target).toEqual({
        kind: 'aws',
        tableName: 'Accounts-1',
        region: 'eu-central-1',
      });
      expect(run(['key', 'revoke', 'k'], { ACCOUNTS_TABLE_NAME: 'T', AWS_REGION: 'us-east-1' }).target).toEqual({
        kind: 'aws',
        tableName: 'T',
        region: 'us-east-1',
      });
    });

    it('refuses a table without a region and a region without a table', () => {
      expect(usageError(['key', 'revoke', 'k', '--accounts-table', 'T'])).toContain('needs --region');
      expect(usageError(['key', 'revoke', 'k', '--region', 'eu-west-1'])).toContain(
        '--region only applies together with --accounts-table',
      );
      expect(usageError(['key', 'revoke', 'k', '--accounts-table', 'T', '--region', 'r', '--data-dir', 'd'])).toContain(
        '--data-dir does not apply',
      );
    });
  });
});
