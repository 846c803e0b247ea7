/**
 * `npm run --silent admin -- <noun> <verb>`: manages accounts and API keys in the local store or on AWS, and
 * `backup` / `restore` copy the accounts table to a file and back.
 * The SDK is loaded only after its node-version warning is switched off, so `--json` output stays one object.
 */
import process from 'node:process';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

async function main(): Promise<void> {
  const { runAdmin } = await import('../admin-cli/cli');
  process.exitCode = await runAdmin(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 3;
});
