/**
 * `npm run build:docs [-- OUT_DIR]`: the OpenAPI document and reference page into OUT_DIR (dist/site by default),
 * after validating the document against the official OpenAPI 3.1 schema.
 */
import { resolve } from 'node:path';
import { validateOpenApi } from './openapi-validator';
import { buildSite, OPENAPI_FILE, writeSite } from './site';

export const DEFAULT_OUT_DIR = resolve(import.meta.dirname, '../dist/site');

async function main(outDir: string): Promise<void> {
  const files = buildSite();
  const result = await validateOpenApi(JSON.parse(files[OPENAPI_FILE]) as object);
  if (!result.valid) {
    console.error(`the generated document is not valid OpenAPI ${result.version}:`);
    console.error(JSON.stringify(result.errors, null, 2));
    process.exitCode = 1;
    return;
  }
  for (const path of writeSite(outDir, files)) console.log(`wrote ${path}`);
}

main(resolve(process.argv[2] ?? DEFAULT_OUT_DIR)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
