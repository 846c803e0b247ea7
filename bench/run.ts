/**
 * `npm run bench`: runs every section in bench/sections in name order, each printing its own figures from this
 * one run. A benchmark, not a test: it measures and prints; budgets are compared in the printed lines.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Sections import modules whose Powertools singletons read these once; log and EMF lines would measure the terminal.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const dir = join(import.meta.dirname, 'sections');
  const sections = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .filter((f) => only.length === 0 || only.some((name) => f.includes(name)));
  console.log(`fxrates benchmark — node ${process.version}, ${new Date().toISOString()}`);
  for (const file of sections) {
    const section = (await import(join(dir, file))) as { default: () => Promise<void> };
    console.log(`\n## ${file.replace(/^\d+-|\.ts$/g, '')}`);
    await section.default();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
