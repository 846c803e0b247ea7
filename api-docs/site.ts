/**
 * The documentation site: the OpenAPI document and its reference page, as files. `npm run build:docs` writes
 * them; the local gateway serves the same bytes at /openapi.json and /docs/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from './openapi';
import { renderReferencePage } from './reference-page';

/** Paths of the site's files, relative to its root; the page links the document as `../openapi.json`. */
export const OPENAPI_FILE = 'openapi.json';
export const REFERENCE_PAGE_FILE = 'docs/index.html';

/** The site's one icon, the dashboard's (web/); the reference page carries it inline. */
export const ICON_SOURCE = join(import.meta.dirname, '../web/favicon.svg');

/** No scripts, nothing loaded: its one stylesheet is inline and its icon a data: URL. */
export const REFERENCE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export interface SiteFiles {
  [OPENAPI_FILE]: string;
  [REFERENCE_PAGE_FILE]: string;
}

export function buildSite(): SiteFiles {
  const document = buildOpenApiDocument();
  return {
    [OPENAPI_FILE]: `${JSON.stringify(document, null, 2)}\n`,
    [REFERENCE_PAGE_FILE]: renderReferencePage(document, `../${OPENAPI_FILE}`, {
      icon: readFileSync(ICON_SOURCE, 'utf8'),
    }),
  };
}

export function writeSite(outDir: string, files: SiteFiles = buildSite()): string[] {
  return Object.entries(files).map(([name, content]) => {
    const path = join(outDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  });
}
