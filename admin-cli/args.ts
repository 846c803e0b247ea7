import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isPlanId, type LimitOverrides, MAX_LIMIT, PLAN_IDS, type PlanId } from '../lambdas/core/domain/plans';
import type { CreateAccountInput } from '../lambdas/core/store/accounts-store';
import { DATA_DIR_ENV, DEFAULT_DATA_DIR } from '../local-server/data-dir';
import { UsageError } from './usage-error';

export { UsageError };

export type AdminCommand =
  | { kind: 'account-create'; input: CreateAccountInput }
  | { kind: 'account-list' }
  | { kind: 'account-show' | 'account-suspend' | 'account-resume' | 'account-verify'; accountId: string }
  | { kind: 'account-set-plan'; accountId: string; plan: PlanId }
  | { kind: 'key-create'; accountId: string; name?: string }
  | { kind: 'key-list'; accountId: string }
  | { kind: 'key-revoke'; keyId: string }
  /** `file` is a path resolved against the working directory, or `-` for stdout. */
  | { kind: 'backup'; file: string }
  /** `file` is a path resolved against the working directory, or `-` for stdin. */
  | { kind: 'restore'; file: string; replace: boolean };

/**
 * A local target is the running server of the data directory, found through its lock or endpoint file; with
 * `stopped` the store's files are opened directly instead, which only works while no server runs there.
 */
export type StoreTarget =
  | { kind: 'aws'; tableName: string; region: string }
  | { kind: 'local'; dataDir: string; stopped: boolean };

export type Invocation = { kind: 'help' } | { kind: 'run'; command: AdminCommand; json: boolean; target: StoreTarget };

export const STOPPED_OPTION = '--stopped';

export const USAGE = `Usage: npm run --silent admin -- <noun> <verb> [arguments] [options]
       npm run --silent admin -- backup|restore FILE [options]

Accounts
  account create --plan free|pro|business [--email E] [--monthly-limit N] [--per-minute N]
                 [--overflow-percent P | --no-overflow] [--unverified]
  account list                         every account, oldest first: id, email, plan, status, verified,
                                       active keys, created, and the owner of one made in the dashboard
  account show ID
  account suspend ID
  account resume ID
  account verify ID
  account set-plan ID free|pro|business
                                       refused while the account holds more active keys than the plan allows

Keys
  key create --account ID [--name N]   the key is printed this once and never again
  key list --account ID                every key of the account, revoked ones included
  key revoke KEY_ID                    revoking a revoked key changes nothing and succeeds

Backup
  backup FILE                          every account, key (its hash, never the key) and usage item, read
                                       consistently, into FILE (mode 600; - for stdout)
  restore FILE [--replace]             checks FILE whole, then writes its items and recounts each account's
                                       active keys; refused when the store holds any account or key unless
                                       --replace (items with the same keys are overwritten); - reads stdin

Options
  --json                  print exactly one JSON object on stdout and nothing else
  --data-dir DIR          local data directory (default: $FXRATES_DATA_DIR, else .data)
  --stopped               open the data directory's store directly, while no server runs there
  --accounts-table NAME   use this DynamoDB table on AWS (or $ACCOUNTS_TABLE_NAME)
  --region R              AWS region of that table (or $AWS_REGION)
  -h, --help              print this help

Store
  By default the store of the fxrates server running with the data directory, found through the
  directory's server.lock (or dynamodb-endpoint.json); when none runs there the CLI names the servers
  that do run and exits 3. With --stopped: the directory's store files, opened directly; refused while a
  server runs there, and refused when the directory holds no store (except for restore, which creates
  it). With --accounts-table: that table on AWS, with the default credential chain.

Limits
  --monthly-limit and --per-minute are positive integers. --overflow-percent is an integer from 0 to 100
  and allows overflow; --no-overflow forbids it. Omitted limits come from the plan. A new account is
  verified unless --unverified is given; keys are only created for verified, active accounts.

Exit status and errors
  0 done; 1 refused (unknown account or key, plan's key limit reached, too many active keys for the
  new plan, account unverified or suspended, damaged backup, restore into a store that is not empty);
  2 bad arguments; 3 no server runs with the data directory, store unreachable, or unexpected failure. The reason is one line on
  stderr; with --json stdout also carries {"error": "<reason>", "code": "<code>"}.
`;

/** Every option of every command, in node:util parseArgs' form; `-h` is the only short one. */
const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'data-dir': { type: 'string' },
  stopped: { type: 'boolean' },
  'accounts-table': { type: 'string' },
  region: { type: 'string' },
  plan: { type: 'string' },
  email: { type: 'string' },
  'monthly-limit': { type: 'string' },
  'per-minute': { type: 'string' },
  'overflow-percent': { type: 'string' },
  'no-overflow': { type: 'boolean' },
  unverified: { type: 'boolean' },
  account: { type: 'string' },
  name: { type: 'string' },
  replace: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

type OptionName = keyof typeof OPTIONS;

const GLOBAL_OPTIONS: readonly OptionName[] = ['json', 'help', 'data-dir', 'stopped', 'accounts-table', 'region'];

interface CommandSpec {
  positionals: readonly string[];
  options: readonly OptionName[];
}

const COMMANDS: Record<string, CommandSpec> = {
  'account create': {
    positionals: [],
    options: ['plan', 'email', 'monthly-limit', 'per-minute', 'overflow-percent', 'no-overflow', 'unverified'],
  },
  'account list': { positionals: [], options: [] },
  'account show': { positionals: ['ID'], options: [] },
  'account suspend': { positionals: ['ID'], options: [] },
  'account resume': { positionals: ['ID'], options: [] },
  'account verify': { positionals: ['ID'], options: [] },
  'account set-plan': { positionals: ['ID', 'PLAN'], options: [] },
  'key create': { positionals: [], options: ['account', 'name'] },
  'key list': { positionals: [], options: ['account'] },
  'key revoke': { positionals: ['KEY_ID'], options: [] },
  backup: { positionals: ['FILE'], options: [] },
  restore: { positionals: ['FILE'], options: ['replace'] },
};

/** Commands of one word; the others are a noun and a verb. */
const SINGLE_WORD_COMMANDS = new Set(['backup', 'restore']);

function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

interface Tokens {
  positionals: string[];
  options: Map<OptionName, string | true>;
}

/** Checked beyond parseArgs so that every mistake gets a one-line reason. */
function tokenize(argv: readonly string[]): Tokens {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const options = new Map<OptionName, string | true>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    if (!token.rawName.startsWith('--')) {
      const arg = argv[token.index] as string;
      if (arg !== '-h') throw new UsageError(`unknown option ${arg}`);
      options.set('help', true);
      continue;
    }
    const name = token.name;
    if (!isOptionName(name)) throw new UsageError(`unknown option --${name}`);
    if (options.has(name)) throw new UsageError(`--${name} is given more than once`);
    if (OPTIONS[name].type === 'boolean') {
      if (token.inlineValue) throw new UsageError(`--${name} takes no value`);
      options.set(name, true);
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    options.set(name, value);
  }
  return { positionals, options };
}

function stringOption(tokens: Tokens, name: OptionName): string | undefined {
  const value = tokens.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

function requiredOption(tokens: Tokens, name: OptionName, command: string): string {
  const value = stringOption(tokens, name);
  if (value === undefined || value === '') throw new UsageError(`${command} needs --${name}`);
  return value;
}

function parsePlan(raw: string, what: string): PlanId {
  const plan = raw.toLowerCase();
  if (!isPlanId(plan)) throw new UsageError(`${what} must be one of ${PLAN_IDS.join(', ')}, not '${raw}'`);
  return plan;
}

/** Digits only: no sign, exponent, fraction or separators, so `1e3` or `10.0` are refused rather than guessed. */
export function parsePositiveInteger(raw: string, option: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || !Number.isSafeInteger(value)) {
    throw new UsageError(`--${option} must be a positive integer, not '${raw}'`);
  }
  if (value > MAX_LIMIT) throw new UsageError(`--${option} must be at most ${MAX_LIMIT}, not '${raw}'`);
  return value;
}

export function parsePercent(raw: string, option: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 100) {
    throw new UsageError(`--${option} must be an integer from 0 to 100, not '${raw}'`);
  }
  return value;
}

function parseOverrides(tokens: Tokens): LimitOverrides {
  const overrides: LimitOverrides = {};
  const monthly = stringOption(tokens, 'monthly-limit');
  if (monthly !== undefined) overrides.monthlyLimit = parsePositiveInteger(monthly, 'monthly-limit');
  const perMinute = stringOption(tokens, 'per-minute');
  if (perMinute !== undefined) overrides.perMinute = parsePositiveInteger(perMinute, 'per-minute');
  const percent = stringOption(tokens, 'overflow-percent');
  if (percent !== undefined && tokens.options.has('no-overflow')) {
    throw new UsageError('give either --overflow-percent or --no-overflow, not both');
  }
  if (percent !== undefined) {
    overrides.overflowPercent = parsePercent(percent, 'overflow-percent');
    overrides.overflowAllowed = true;
  }
  if (tokens.options.has('no-overflow')) overrides.overflowAllowed = false;
  return overrides;
}

/** `-` stays itself (stdin or stdout); anything else is a path made absolute, so messages name it whole. */
function fileArgument(raw: string, cwd: string): string {
  return raw === '-' ? raw : resolve(cwd, raw);
}

function buildCommand(name: string, tokens: Tokens, args: readonly string[], cwd: string): AdminCommand {
  switch (name) {
    case 'account create': {
      const input: CreateAccountInput = {
        plan: parsePlan(requiredOption(tokens, 'plan', name), '--plan'),
        verified: !tokens.options.has('unverified'),
        overrides: parseOverrides(tokens),
      };
      const email = stringOption(tokens, 'email');
      if (email !== undefined) input.email = email;
      return { kind: 'account-create', input };
    }
    case 'account list':
      return { kind: 'account-list' };
    case 'account show':
      return { kind: 'account-show', accountId: args[0] as string };
    case 'account suspend':
      return { kind: 'account-suspend', accountId: args[0] as string };
    case 'account resume':
      return { kind: 'account-resume', accountId: args[0] as string };
    case 'account verify':
      return { kind: 'account-verify', accountId: args[0] as string };
    case 'account set-plan':
      return { kind: 'account-set-plan', accountId: args[0] as string, plan: parsePlan(args[1] as string, 'PLAN') };
    case 'key create': {
      const command: AdminCommand = { kind: 'key-create', accountId: requiredOption(tokens, 'account', name) };
      const keyName = stringOption(tokens, 'name');
      if (keyName !== undefined) command.name = keyName;
      return command;
    }
    case 'key list':
      return { kind: 'key-list', accountId: requiredOption(tokens, 'account', name) };
    case 'backup':
      return { kind: 'backup', file: fileArgument(args[0] as string, cwd) };
    case 'restore':
      return { kind: 'restore', file: fileArgument(args[0] as string, cwd), replace: tokens.options.has('replace') };
    default:
      return { kind: 'key-revoke', keyId: args[0] as string };
  }
}

function resolveTarget(tokens: Tokens, env: Readonly<Record<string, string | undefined>>, cwd: string): StoreTarget {
  const tableName = stringOption(tokens, 'accounts-table') || env.ACCOUNTS_TABLE_NAME || undefined;
  if (tableName !== undefined) {
    if (tokens.options.has('data-dir')) throw new UsageError('--data-dir does not apply to a table on AWS');
    if (tokens.options.has('stopped')) throw new UsageError(`${STOPPED_OPTION} does not apply to a table on AWS`);
    const region = stringOption(tokens, 'region') || env.AWS_REGION || undefined;
    if (region === undefined) throw new UsageError('a table on AWS needs --region (or AWS_REGION)');
    return { kind: 'aws', tableName, region };
  }
  if (tokens.options.has('region')) throw new UsageError('--region only applies together with --accounts-table');
  const dataDir = stringOption(tokens, 'data-dir') || env[DATA_DIR_ENV] || DEFAULT_DATA_DIR;
  return { kind: 'local', dataDir: resolve(cwd, dataDir), stopped: tokens.options.has('stopped') };
}

/** Turns the command line into what to do and where; throws UsageError with a one-line reason. */
export function parseInvocation(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Invocation {
  const tokens = tokenize(argv);
  if (tokens.options.has('help')) return { kind: 'help' };
  const [noun, ...rest] = tokens.positionals;
  if (noun === undefined) throw new UsageError('no command given');
  let name: string;
  let args: string[];
  if (SINGLE_WORD_COMMANDS.has(noun)) {
    name = noun;
    args = rest;
  } else {
    if (noun !== 'account' && noun !== 'key') {
      throw new UsageError(`unknown command '${noun}'; use account, key, backup or restore`);
    }
    const [verb, ...after] = rest;
    if (verb === undefined) throw new UsageError(`${noun} needs a verb`);
    name = `${noun} ${verb}`;
    args = after;
  }
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`unknown command '${name}'`);
  for (const option of tokens.options.keys()) {
    if (!GLOBAL_OPTIONS.includes(option) && !spec.options.includes(option)) {
      throw new UsageError(`--${option} does not apply to ${name}`);
    }
  }
  if (args.length < spec.positionals.length) {
    throw new UsageError(`${name} needs ${spec.positionals.slice(args.length).join(' ')}`);
  }
  if (args.length > spec.positionals.length) {
    throw new UsageError(`unexpected argument '${args[spec.positionals.length]}' for ${name}`);
  }
  for (const [i, arg] of args.entries()) {
    if (arg === '') throw new UsageError(`${spec.positionals[i]} must not be empty`);
  }
  const command = buildCommand(name, tokens, args, cwd);
  const json = tokens.options.has('json');
  if (command.kind === 'backup' && command.file === '-' && json) {
    throw new UsageError('backup - writes the backup itself to stdout; --json does not apply');
  }
  return { kind: 'run', command, json, target: resolveTarget(tokens, env, cwd) };
}
