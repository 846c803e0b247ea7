/**
 * The API reference as one self-contained HTML page (inline CSS, no scripts, no external requests), rendered
 * from the OpenAPI document alone: whatever the page says, the document says. Operations that name their own
 * server and security (the account dashboard's API) are shown with that base URL and credential.
 *
 * It works at phone width without a script: under BREAKPOINT_PX the sidebar becomes a collapsible "Contents"
 * disclosure at the top, and wide tables and code scroll inside their own keyboard-focusable region, so the page
 * itself never scrolls sideways.
 */
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import type {
  HeaderObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
  ServerObject,
} from './openapi';
import type { JsonSchema } from './schemas';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Inline Markdown of the document's descriptions: `code` and **strong**, on escaped text. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** The Markdown the descriptions use: paragraphs and `- ` lists. */
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- '))) {
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
      }
      const items = lines.findIndex((line) => line.startsWith('- '));
      if (items > 0 && lines.slice(items).every((line) => line.startsWith('- '))) {
        return `<p>${inline(lines.slice(0, items).join(' '))}</p>${markdown(lines.slice(items).join('\n'))}`;
      }
      return `<p>${inline(block.replace(/\n/g, ' '))}</p>`;
    })
    .join('\n');
}

/** A path that a narrow column breaks before a `/` rather than inside a word. */
const breakable = (path: string): string => escapeHtml(path).replace(/(?<=.)\//g, '<wbr>/');

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

interface Operation {
  method: string;
  path: string;
  operation: OperationObject;
}

/** The server of an operation: its own, else the document's. */
const serverOf = (doc: OpenApiDocument, operation: OperationObject): ServerObject | undefined =>
  operation.servers?.[0] ?? doc.servers[0];

/** The shell variables of the examples: the document's server and key, or an operation's own server and token. */
const BASE_VARIABLE = 'BASE';
const OWN_BASE_VARIABLE = 'DASHBOARD_API';

function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Follows a local `$ref` into the document's components. */
function resolve<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const target = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
    return resolve(doc, target as T);
  }
  return value as T;
}

/** A schema with its `$ref` followed, the referring schema's own keywords (description, examples) on top. */
function expand(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref !== 'string') return schema;
  const { $ref, ...own } = schema;
  return { ...expand(doc, resolve<JsonSchema>(doc, { $ref })), ...own };
}

/** A short, readable type of a schema: `string`, `integer ≥ 0`, `map: code → number`, `one of en, de`. */
function typeOf(doc: OpenApiDocument, raw: JsonSchema): string {
  const schema = expand(doc, raw);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `${schema.type ?? 'string'}: ${schema.enum.join(' | ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  if (type === 'array' && schema.items && typeof schema.items === 'object') {
    const items = expand(doc, schema.items as JsonSchema);
    return `array of ${items.properties ? 'objects' : typeOf(doc, items)}`;
  }
  if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `map: code → ${typeOf(doc, schema.additionalProperties as JsonSchema)}`;
  }
  const notes: string[] = [];
  if (typeof schema.format === 'string') notes.push(schema.format);
  if (typeof schema.pattern === 'string') notes.push(`pattern ${schema.pattern}`);
  if (typeof schema.minimum === 'number') notes.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') notes.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') notes.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') notes.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.maxLength === 'number') notes.push(`at most ${schema.maxLength} characters`);
  return notes.length ? `${type} (${notes.join(', ')})` : type;
}

interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

/** The fields of a body, flattened to dotted paths: `data.quota.used`. */
function fieldsOf(doc: OpenApiDocument, raw: JsonSchema, prefix = '', required = true): FieldRow[] {
  const schema = expand(doc, raw);
  const rows: FieldRow[] = [];
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type === 'object' && properties) {
    const mandatory = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, child] of Object.entries(properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const expanded = expand(doc, child);
      const isRequired = required && mandatory.has(name);
      rows.push({
        path,
        type: expanded.properties ? 'object' : typeOf(doc, child),
        required: isRequired,
        description: String(expanded.description ?? ''),
      });
      if (expanded.properties) rows.push(...fieldsOf(doc, expanded, path, isRequired));
      // The fields of an array's objects, as `keys[].id`: present in every element there is.
      const items = expanded.type === 'array' && expanded.items ? expand(doc, expanded.items as JsonSchema) : {};
      if (items.properties) rows.push(...fieldsOf(doc, items, `${path}[]`, isRequired));
    }
  }
  return rows;
}

/**
 * A region that scrolls sideways by itself when its content is wider than the column. It takes keyboard focus, so
 * what is out of view can be scrolled to without a pointer, and its label names it when it does.
 */
const scrollRegion = (label: string, className = '') =>
  `class="${['scroll', className].filter(Boolean).join(' ')}" tabindex="0" role="region" aria-label="${escapeHtml(label)}"`;

/** Preformatted text (a shell session, a JSON body) in its own scroll region. */
const pre = (label: string, text: string, className = ''): string =>
  `<pre ${scrollRegion(label, className)}>${escapeHtml(text)}</pre>`;

function table(label: string, head: string[], rows: string[][], className = ''): string {
  return [
    `<div ${scrollRegion(label)}><table${className ? ` class="${className}"` : ''}><thead><tr>`,
    ...head.map((h) => `<th>${h}</th>`),
    '</tr></thead><tbody>',
    ...rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
  ].join('');
}

const yes = '<span class="req">required</span>';
const no = '<span class="opt">optional</span>';

function parametersSection(
  doc: OpenApiDocument,
  parameters: readonly ParameterObject[],
  credential: 'key' | 'token',
  name: string,
): string {
  if (parameters.length === 0) return `<p class="muted">No parameters; the ${credential} identifies the account.</p>`;
  const rows = parameters.map((p) => [
    `<code>${escapeHtml(p.name)}</code>`,
    escapeHtml(p.in),
    p.required ? yes : no,
    `<code class="type">${escapeHtml(typeOf(doc, { ...p.schema, default: undefined }))}</code>`,
    p.schema.default === undefined
      ? '<span class="muted">–</span>'
      : `<code>${escapeHtml(String(p.schema.default))}</code>`,
    markdown(p.description),
  ]);
  return table(`Parameters of ${name}`, ['Name', 'In', 'Required', 'Schema', 'Default', 'Description'], rows, 'params');
}

/** A shell word in single quotes. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function curlOf(method: string, path: string, operation: OperationObject): string {
  let url = path;
  const query: string[] = [];
  for (const p of operation.parameters) {
    if (p.example === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(p.example));
    if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(p.example)}`);
  }
  if (!operation.servers) {
    const target = `$${BASE_VARIABLE}${url}${query.length ? `?${query.join('&')}` : ''}`;
    return `curl -i -H "${API_KEY_HEADER}: $KEY" "${target}"`;
  }
  const words = ['curl -i'];
  if (method !== 'GET') words.push(`-X ${method}`);
  words.push('-H "Authorization: Bearer $TOKEN"');
  const body = operation.requestBody?.content['application/json'];
  if (body) words.push("-H 'Content-Type: application/json'", `-d ${shellQuote(JSON.stringify(body.example))}`);
  words.push(`"$${OWN_BASE_VARIABLE}${url}${query.length ? `?${query.join('&')}` : ''}"`);
  return words.join(' ');
}

const isRateLimitHeader = (name: string) => /^(X-)?RateLimit/.test(name);

/** A response's headers; the six rate-limit headers, always together, as one link to their explanation. */
function headerList(headers: ResponseObject['headers']): string {
  const names = Object.keys(headers ?? {});
  const own = names.filter((name) => !isRateLimitHeader(name)).map((name) => `<code>${escapeHtml(name)}</code>`);
  if (names.some(isRateLimitHeader)) own.push('<a href="#headers">rate-limit headers</a>');
  return own.join(' ');
}

function responsesSection(responses: Record<string, ResponseObject>, name: string): string {
  const rows = Object.entries(responses).map(([status, response]) => {
    const codes = response['x-error-codes'] ?? [];
    const first = response.description.split('\n')[0] ?? '';
    const meaning = codes.length ? first.replace(/\. `error\.code` is one of:$/, '.') : response.description;
    return [
      `<span class="status s${status[0]}">${escapeHtml(status)}</span>`,
      markdown(meaning),
      codes.length
        ? codes.map((code) => `<a class="code" href="#error-${code}">${escapeHtml(code)}</a>`).join(' ')
        : '<span class="muted">–</span>',
      headerList(response.headers),
    ];
  });
  return table(`Responses of ${name}`, ['Status', 'Meaning', 'Error codes', 'Headers'], rows, 'responses');
}

/** The fields of a request body, with its example. */
function requestBodySection(doc: OpenApiDocument, operation: OperationObject, name: string): string {
  const body = operation.requestBody;
  const content = body?.content['application/json'];
  if (!body || !content) return '';
  const rows = fieldsOf(doc, content.schema).map((f) => [
    `<code>${escapeHtml(f.path)}</code>`,
    `<code class="type">${escapeHtml(f.type)}</code>`,
    f.required ? yes : no,
    inline(f.description),
  ]);
  return [
    '<h4>Request body</h4>',
    markdown(body.description),
    table(`Request body of ${name}`, ['Field', 'Type', 'Presence', 'Description'], rows, 'fields'),
  ].join('\n');
}

function operationSection(doc: OpenApiDocument, { method, path, operation }: Operation): string {
  const server = serverOf(doc, operation)?.url ?? '';
  const successStatus = Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? '200';
  const ok = operation.responses[successStatus];
  const okContent = ok?.content?.['application/json'];
  const fields = okContent ? fieldsOf(doc, okContent.schema) : [];
  const fieldRows = fields.map((f) => [
    `<code>${escapeHtml(f.path)}</code>`,
    `<code class="type">${escapeHtml(f.type)}</code>`,
    f.required ? yes : no,
    inline(f.description),
  ]);
  const name = `${method} ${server}${path}`;
  return [
    `<article class="operation" id="op-${slug(operation.operationId)}">`,
    `<h3><span class="method">${method}</span> <code class="path">${escapeHtml(server + path)}</code></h3>`,
    `<p class="summary">${inline(operation.summary)}</p>`,
    markdown(operation.description),
    '<h4>Parameters</h4>',
    parametersSection(doc, operation.parameters, operation.security ? 'token' : 'key', name),
    requestBodySection(doc, operation, name),
    '<h4>Example request</h4>',
    pre(`Example request of ${name}`, curlOf(method, path, operation), 'shell'),
    '<h4>Responses</h4>',
    responsesSection(operation.responses, name),
    `<h4>Response body (${successStatus})</h4>`,
    table(`Response body of ${name}`, ['Field', 'Type', 'Presence', 'Description'], fieldRows, 'fields'),
    okContent?.example === undefined
      ? ''
      : `<details><summary>Example ${successStatus} body</summary>${pre(`Example ${successStatus} body of ${name}`, JSON.stringify(okContent.example, null, 2))}</details>`,
    '</article>',
  ].join('\n');
}

function headersSection(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.components.headers).map(([name, header]: [string, HeaderObject]) => [
    `<code>${escapeHtml(name)}</code>`,
    inline(header.description),
    header.example === undefined ? '' : `<code>${escapeHtml(String(header.example))}</code>`,
  ]);
  return table('Rate-limit and other response headers', ['Header', 'Meaning', 'Example'], rows, 'headers');
}

function errorCatalog(doc: OpenApiDocument): string {
  const rows = doc['x-error-catalog'].map((entry) => [
    `<span class="status s${String(entry.status)[0]}">${entry.status}</span>`,
    `<code id="error-${entry.code}">${escapeHtml(entry.code)}</code>`,
    inline(entry.when),
    `<span class="muted">${escapeHtml(entry.message)}</span>`,
  ]);
  return table('Error catalog', ['Status', 'Code', 'When', 'Default message'], rows, 'catalog');
}

/** Below this viewport width the sidebar becomes the "Contents" disclosure above the reference. */
export const BREAKPOINT_PX = 860;

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

const STYLE = `
:root { --ink: #1d2330; --muted: #5d6677; --line: #dde2ea; --soft: #f5f7fa; --accent: #0b6bcb; --code: #eef2f7; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: #fff; }
a { color: var(--accent); text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code, pre { font-family: ${MONO}; font-size: 13px; }
code { background: var(--code); padding: 1px 5px; border-radius: 4px; white-space: nowrap; }
pre { background: #17202e; color: #e6edf6; padding: 12px 14px; border-radius: 6px; margin: 8px 0 16px; }
pre code { background: none; padding: 0; }
.scroll { overflow-x: auto; max-width: 100%; }
pre.scroll:focus-visible { outline-offset: 1px; }
.skip { position: absolute; left: 12px; top: -60px; z-index: 2; background: #fff; padding: 8px 12px;
  border: 2px solid var(--accent); border-radius: 6px; }
.skip:focus { top: 12px; }
header.top { padding: 22px 32px; border-bottom: 1px solid var(--line); background: var(--soft); }
header.top h1 { margin: 0; font-size: 24px; }
header.top .version { font-size: 13px; font-weight: 500; color: var(--muted); margin-left: 8px; white-space: nowrap; }
header.top p { margin: 4px 0 0; color: var(--muted); }
.layout { display: grid; grid-template-columns: 290px minmax(0, 1fr); }
nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 20px 16px 20px 28px;
  border-right: 1px solid var(--line); font-size: 14px; }
.toc { margin: 0; }
.toc > summary { cursor: pointer; font-weight: 600; color: var(--ink); }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 18px 0 6px;
  padding: 0; border: 0; }
.toc-body > h2:first-child { margin-top: 0; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: 4px 0; }
nav li a { display: flex; align-items: baseline; text-decoration: none; }
nav li a:hover { text-decoration: underline; }
nav .m { flex: none; width: 32px; font-size: 10px; font-weight: 700; color: #1a7f37; }
nav .m.long { width: 50px; }
nav .p { font-family: ${MONO}; font-size: 12px; overflow-wrap: anywhere; }
main { padding: 8px 40px 60px; max-width: 1100px; min-width: 0; }
section { padding-top: 12px; }
h2 { font-size: 21px; margin: 28px 0 10px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 0 0 4px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
h3.topic { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px;
  gap: 6px; }
h3.topic code { text-transform: none; letter-spacing: 0; color: var(--ink); }
h4 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px; }
.operation { border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px 8px; margin: 18px 0 26px;
  scroll-margin-top: 12px; }
.operation .summary { font-size: 16px; margin: 2px 0 8px; }
.method { background: #1a7f37; color: #fff; font-size: 12px; font-weight: 700; padding: 3px 8px; border-radius: 4px; }
code.path { font-size: 15px; background: none; padding: 0; overflow-wrap: anywhere; white-space: normal; }
div.scroll { margin: 6px 0 12px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 7px 10px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
td p { margin: 0 0 4px; }
td ul { margin: 0; padding-left: 18px; }
code.type { background: none; padding: 0; color: #6a3fb5; white-space: normal; word-break: break-word; }
.req { color: #b42318; font-size: 12px; font-weight: 600; }
.opt { color: var(--muted); font-size: 12px; }
.muted { color: var(--muted); }
.status { display: inline-block; min-width: 38px; text-align: center; font-weight: 700; font-size: 12px;
  padding: 1px 6px; border-radius: 4px; margin: 1px 2px 1px 0; }
.s2 { background: #dafbe1; color: #116329; }
.s3 { background: #ddf4ff; color: #0550ae; }
.s4 { background: #fff1e5; color: #953800; }
.s5 { background: #ffebe9; color: #a40e26; }
a.code { display: inline-block; white-space: nowrap; font-family: ${MONO}; font-size: 12px;
  background: var(--code); padding: 1px 6px; border-radius: 4px; margin: 1px 2px; color: var(--ink);
  text-decoration-color: #8a93a3; }
table.responses td:nth-child(4) code { font-size: 11px; margin: 1px 0; display: inline-block; }
table.responses td:first-child, table.catalog td:first-child, table.catalog td:nth-child(2),
table.headers td:first-child, table.params td:first-child, table.fields td:first-child { white-space: nowrap; }
details:not(.toc) { margin: 4px 0 14px; }
summary { cursor: pointer; color: var(--accent); font-size: 14px; }
.to-contents { display: none; }
/* The wide layout: the disclosure is the sidebar, always open. Where ::details-content is unknown, its summary stays,
   so the navigation can still be opened. */
@media (min-width: ${BREAKPOINT_PX}px) {
  .toc::details-content { content-visibility: visible; display: contents; }
  @supports selector(::details-content) { .toc > summary { display: none; } }
}
/* The narrow layout: the navigation is a disclosure above the reference, and every wide block scrolls by itself. */
@media (max-width: ${BREAKPOINT_PX - 0.02}px) {
  header.top { padding: 16px; }
  header.top h1 { font-size: 21px; }
  header.top .version { display: block; margin: 2px 0 0; }
  .layout { display: block; }
  nav { position: static; max-height: none; overflow: visible; padding: 0; border-right: 0;
    border-bottom: 1px solid var(--line); }
  .toc > summary { padding: 12px 16px; font-size: 16px; color: var(--accent); }
  .toc[open] > summary { border-bottom: 1px solid var(--line); }
  .toc-body { padding: 14px 16px 18px; }
  nav li { margin: 0; }
  nav li a { padding: 7px 0; }
  main { padding: 4px 16px 72px; }
  h2 { font-size: 19px; }
  .operation { padding: 14px 12px 6px; margin: 14px 0 20px; }
  code.path { font-size: 14px; }
  p code, li code { white-space: normal; overflow-wrap: anywhere; }
  /* Squeezed to the phone's width a table's columns turn into a few letters a line: it keeps a readable width and
     scrolls sideways in its region instead. */
  div.scroll > table { min-width: 640px; }
  table.fields td:nth-child(2), table.params td:nth-child(4) { min-width: 11em; }
  table.fields td:last-child, table.params td:last-child, table.catalog td:nth-child(3) { min-width: 15em; }
  .to-contents { display: block; position: fixed; right: 12px; bottom: 12px; z-index: 1; padding: 8px 14px;
    background: var(--ink); color: #fff; border-radius: 20px; font-size: 14px; text-decoration: none;
    box-shadow: 0 2px 8px rgba(0, 0, 0, .25); }
}
`;

/**
 * The base URL and the credential of a tag whose operations name their own server and security scheme (the
 * dashboard API), stated once above its operations; nothing for the others.
 */
function ownAccess(doc: OpenApiDocument, operations: readonly Operation[]): string {
  const first = operations[0]?.operation;
  const server = first?.servers?.[0];
  const schemeName = Object.keys(first?.security?.[0] ?? {})[0];
  if (!server || schemeName === undefined) return '';
  const scheme = doc.components.securitySchemes[schemeName] ?? {};
  return [
    `<p>Base URL: <code>${escapeHtml(server.url)}</code>. ${inline(server.description)} The examples below use ` +
      `<code>${OWN_BASE_VARIABLE}</code> for it and <code>TOKEN</code> for an ID token:</p>`,
    pre(
      `Shell variables of the ${server.url} examples`,
      `${OWN_BASE_VARIABLE}=http://127.0.0.1:3000${server.url}\nTOKEN=…   # the IdToken of InitiateAuth`,
      'shell',
    ),
    // An h3, as the operations after it: a heading of this tag's section, never a level below the section's h2.
    `<h3 class="topic" id="auth-${slug(schemeName)}">Authentication: <code>${escapeHtml(schemeName)}</code></h3>`,
    markdown(String(scheme.description ?? '')),
  ].join('\n');
}

export interface ReferencePageOptions {
  /**
   * The site's icon (SVG text). The page carries it as a data: URL, so it stays self-contained and the browser
   * asks no server for an icon; without it, the page names none.
   */
  icon?: string;
}

/** The reference page of a document. `specHref` is where the page links the JSON document. */
export function renderReferencePage(
  doc: OpenApiDocument,
  specHref = '../openapi.json',
  options: ReferencePageOptions = {},
): string {
  const operations = operationsOf(doc);
  const scheme = Object.values(doc.components.securitySchemes)[0] ?? {};
  const server = doc.servers[0];
  const byTag = new Map<string, Operation[]>();
  for (const op of operations) {
    const tag = op.operation.tags[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const nav = [
    '<h2>Guide</h2><ul>',
    '<li><a href="#overview">Overview</a></li>',
    '<li><a href="#authentication">Authentication</a></li>',
    '<li><a href="#headers">Rate limits and headers</a></li>',
    '<li><a href="#errors">Errors</a></li>',
    '</ul>',
    ...doc.tags.flatMap((tag) => {
      const ops = byTag.get(tag.name) ?? [];
      // A group with a method longer than GET gets a wider method column, so its paths stay aligned.
      const methodClass = ops.some((op) => op.method.length > 3) ? 'm long' : 'm';
      return [
        `<h2>${escapeHtml(tag.name)}</h2><ul>`,
        ...ops.map(
          (op) =>
            `<li><a href="#op-${slug(op.operation.operationId)}"><span class="${methodClass}">${op.method}</span> <span class="p">${breakable(`${op.operation.servers?.[0]?.url ?? ''}${op.path}`)}</span></a></li>`,
        ),
        '</ul>',
      ];
    }),
    `<h2>Machine-readable</h2><ul><li><a href="${escapeHtml(specHref)}">openapi.json</a> (OpenAPI ${escapeHtml(doc.openapi)})</li></ul>`,
  ].join('\n');

  const main = [
    '<section id="overview"><h2>Overview</h2>',
    markdown(doc.info.description),
    server
      ? `<p>Base URL: <code>${escapeHtml(server.url)}</code>. ${inline(server.description)} The examples below ` +
        'use <code>BASE</code> for it and <code>KEY</code> for a key:</p>' +
        pre(
          'Shell variables of the examples',
          `BASE=http://127.0.0.1:3000${server.url}\nKEY=$(node -p 'require("./.data/demo-keys.json").pro')`,
          'shell',
        )
      : '',
    '</section>',
    '<section id="authentication"><h2>Authentication</h2>',
    markdown(String(scheme.description ?? '')),
    '</section>',
    '<section id="headers"><h2>Rate limits and headers</h2>',
    '<p>Limits apply per account: a per-minute limit (UTC calendar minute) and a monthly quota (UTC calendar ' +
      'month). Every response to a request that went through metering carries the rate-limit headers, 429s ' +
      'included; a 429 adds <code>Retry-After</code>, and so does a 503 because the store did not answer in ' +
      'time.</p>',
    headersSection(doc),
    '</section>',
    ...doc.tags.flatMap((tag) => [
      `<section id="tag-${slug(tag.name)}"><h2>${escapeHtml(tag.name)}</h2>`,
      markdown(tag.description),
      ownAccess(doc, byTag.get(tag.name) ?? []),
      ...(byTag.get(tag.name) ?? []).map((op) => operationSection(doc, op)),
      '</section>',
    ]),
    '<section id="errors"><h2>Errors</h2>',
    '<p>Every failure has the same body, with <code>Cache-Control: no-store</code> and <code>X-Request-Id</code>. ' +
      'Clients branch on <code>error.code</code>; <code>error.param</code> names the one input at fault, when ' +
      'there is one.</p>',
    pre(
      'Example error body',
      JSON.stringify(
        {
          success: false,
          error: { code: 'unsupported-currency', message: "Currency 'XYZ' is not supported.", param: 'to' },
        },
        null,
        2,
      ),
    ),
    errorCatalog(doc),
    '</section>',
  ].join('\n');

  const title = `${doc.info.title} reference`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    options.icon === undefined
      ? ''
      : `<link rel="icon" type="image/svg+xml" href="${escapeHtml(`data:image/svg+xml,${encodeURIComponent(options.icon.trim())}`)}">`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<a class="skip" href="#reference">Skip to the reference</a>',
    `<header class="top"><h1>${escapeHtml(doc.info.title)}<span class="version">v${escapeHtml(doc.info.version)} · OpenAPI ${escapeHtml(doc.openapi)}</span></h1>`,
    `<p>${inline(doc.info.summary)}</p></header>`,
    '<div class="layout">',
    // One navigation for both layouts: a disclosure that the wide layout keeps open as the sidebar (STYLE).
    `<nav id="contents" aria-label="Contents"><details class="toc"><summary>Contents</summary><div class="toc-body">${nav}</div></details></nav>`,
    // The phone layout's way back to the navigation, floating; inside main, as all content is in a landmark.
    `<main id="reference">${main}\n<a class="to-contents" href="#contents">Contents</a></main>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
