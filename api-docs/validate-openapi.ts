/**
 * `node --import tsx api-docs/validate-openapi.ts FILE.json`: validates one OpenAPI document against the official
 * schema of its version. Prints the result as JSON; exits 0 when the document is valid, 1 when it is not.
 */
import { readFileSync } from 'node:fs';
import { validateOpenApi } from './openapi-validator';

async function main(file: string | undefined): Promise<number> {
  if (!file) {
    console.error('usage: validate-openapi.ts FILE.json');
    return 2;
  }
  const result = await validateOpenApi(JSON.parse(readFileSync(file, 'utf8')) as object);
  console.log(JSON.stringify(result));
  return result.valid ? 0 : 1;
}

main(process.argv[2]).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
