import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables of the test runner's setup that would point the CLI at a store; removed unless a test sets them. */
const RUNNER_VARIABLES = ['FXRATES_DATA_DIR', 'ACCOUNTS_TABLE_NAME', 'AWS_REGION'];

/**
 * The real admin CLI as a child process, started as `npm run admin` starts it (from the build bin/built.mjs keeps),
 * in `cwd` (the repository by default), with only the variables given.
 */
export function runAdminCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const name of RUNNER_VARIABLES) if (!options.env || !(name in options.env)) delete childEnv[name];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/admin.mjs'), ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** `--json` output: exactly one JSON object on one line. */
export function onlyJsonObject(result: CliResult): Record<string, unknown> {
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  const parsed: unknown = JSON.parse(lines[0] ?? '');
  expect(parsed).toBeInstanceOf(Object);
  return parsed as Record<string, unknown>;
}
