import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isPlanId, type LimitOverrides, MAX_LIMIT, PLAN_IDS, type PlanId } from '../lambdas/core/domain/plans';
import type { CreateAccountInput } from '../lambdas/core/store/accounts-store';
import { DATA_DIR_ENV, DEFAULT_DATA_DIR } from '../local-server/data-dir';

/** Bad command-line input: the CLI prints the message as one line and exits with status 2. */
export class UsageError extends Error {
  readonly code = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type AdminCommand =
  | { kind: 'account-create'; input: CreateAccountInput }
  | { kind: 'account-list' }
  | { kind: 'account-show' | 'account-suspend' | 'account-resume' | 'account-verify'; accountId: string }
  | { kind: 'account-set-plan'; accountId: string; plan: PlanId }
  | { kind: 'key-create'; accountId: string; name?: string }
  | { kind: 'key-list'; accountId: string }
  | { kind: 'key-revoke'; keyId: string };

export type StoreTarget = { kind: 'aws'; tableName: string; region: string } | { kind: 'local'; dataDir: string };

export type Invocation = { kind: 'help' } | { kind: 'run'; command: AdminCommand; json: boolean; target: StoreTarget };

export const USAGE = `Usage: npm run --silent admin -- <noun> <verb> [arguments] [options]

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

Keys
  key create --account ID [--name N]   the key is printed this once and never again
  key list --account ID                every key of the account, revoked ones included
  key revoke KEY_ID                    revoking a revoked key changes nothing and succeeds

Options
  --json                  print exactly one JSON object on stdout and nothing else
  --data-dir DIR          local data directory (default: $FXRATES_DATA_DIR, else .data)
  --accounts-table NAME   use this DynamoDB table on AWS (or $ACCOUNTS_TABLE_NAME)
  --region R              AWS region of that table (or $AWS_REGION)
  -h, --help              print this help

Store
  By default the local store of the data directory: the running local server's DynamoDB endpoint
  (<data dir>/dynamodb-endpoint.json) when it answers, else the store's files opened directly, which
  only works while no server holds them. With --accounts-table: that table on AWS, with the default
  credential chain.

Limits
  --monthly-limit and --per-minute are positive integers. --overflow-percent is an integer from 0 to 100
  and allows overflow; --no-overflow forbids it. Omitted limits come from the plan. A new account is
  verified unless --unverified is given; keys are only created for verified, active accounts.

Exit status and errors
  0 done; 1 refused (unknown account or key, plan's key limit reached, account unverified or
  suspended); 2 bad arguments; 3 store unreachable or unexpected failure. The reason is one line on
  stderr; with --json stdout also carries {"error": "<reason>", "code": "<code>"}.
`;

/** Every option of every command, in node:util parseArgs' form; `-h` is the only short one. */
const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'data-dir': { type: 'string' },
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
} as const satisfies ParseArgsConfig['options'];

type OptionName = keyof typeof OPTIONS;

const GLOBAL_OPTIONS: readonly OptionName[] = ['json', 'help', 'data-dir', 'accounts-table', 'region'];

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
};

function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

interface Tokens {
  positionals: string[];
  options: Map<OptionName, string | true>;
}

/**
 * Tokenized by node:util's parseArgs, checked here so that every mistake gets a one-line reason: every option is
 * known, given at most once, booleans take no value, and string options need one that is not another `--` option.
 * `-h` is the only short option; any other argument starting with one dash is refused whole.
 */
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

function buildCommand(name: string, tokens: Tokens, args: readonly string[]): AdminCommand {
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
    default:
      return { kind: 'key-revoke', keyId: args[0] as string };
  }
}

function resolveTarget(tokens: Tokens, env: Readonly<Record<string, string | undefined>>, cwd: string): StoreTarget {
  const tableName = stringOption(tokens, 'accounts-table') || env.ACCOUNTS_TABLE_NAME || undefined;
  if (tableName !== undefined) {
    if (tokens.options.has('data-dir')) throw new UsageError('--data-dir does not apply to a table on AWS');
    const region = stringOption(tokens, 'region') || env.AWS_REGION || undefined;
    if (region === undefined) throw new UsageError('a table on AWS needs --region (or AWS_REGION)');
    return { kind: 'aws', tableName, region };
  }
  if (tokens.options.has('region')) throw new UsageError('--region only applies together with --accounts-table');
  const dataDir = stringOption(tokens, 'data-dir') || env[DATA_DIR_ENV] || DEFAULT_DATA_DIR;
  return { kind: 'local', dataDir: resolve(cwd, dataDir) };
}

/** Turns the command line into what to do and where; throws UsageError with a one-line reason. */
export function parseInvocation(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Invocation {
  const tokens = tokenize(argv);
  if (tokens.options.has('help')) return { kind: 'help' };
  const [noun, verb, ...args] = tokens.positionals;
  if (noun === undefined) throw new UsageError('no command given');
  if (noun !== 'account' && noun !== 'key') throw new UsageError(`unknown command '${noun}'; use account or key`);
  if (verb === undefined) throw new UsageError(`${noun} needs a verb`);
  const name = `${noun} ${verb}`;
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
  return {
    kind: 'run',
    command: buildCommand(name, tokens, args),
    json: tokens.options.has('json'),
    target: resolveTarget(tokens, env, cwd),
  };
}
