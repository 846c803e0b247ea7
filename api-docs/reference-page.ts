/**
 * The API reference as one self-contained HTML page (inline CSS, no scripts, no external requests), rendered from the
 * OpenAPI document alone. Under BREAKPOINT_PX the sidebar becomes a "Contents" disclosure and wide content scrolls in
 * its own focusable region, so the page never scrolls sideways.
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
import { STYLE } from './reference-page-style';
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

/** Focusable, so what is out of view can be scrolled to without a pointer; its label names it then. */
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

/** A body's fields as a table: its dotted paths, types, presence and descriptions. */
const fieldsTable = (label: string, fields: readonly FieldRow[]): string =>
  table(
    label,
    ['Field', 'Type', 'Presence', 'Description'],
    fields.map((f) => [
      `<code>${escapeHtml(f.path)}</code>`,
      `<code class="type">${escapeHtml(f.type)}</code>`,
      f.required ? yes : no,
      inline(f.description),
    ]),
    'fields',
  );

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
  const fields = fieldsTable(`Request body of ${name}`, fieldsOf(doc, content.schema));
  return ['<h4>Request body</h4>', markdown(body.description), fields].join('\n');
}

function operationSection(doc: OpenApiDocument, { method, path, operation }: Operation): string {
  const server = serverOf(doc, operation)?.url ?? '';
  const successStatus = Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? '200';
  const ok = operation.responses[successStatus];
  const okContent = ok?.content?.['application/json'];
  const fields = okContent ? fieldsOf(doc, okContent.schema) : [];
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
    fieldsTable(`Response body of ${name}`, fields),
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

/** Stated once above the operations of a tag with its own server and security scheme (the dashboard API). */
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
  /** SVG text, carried as a data: URL so the page stays self-contained. */
  icon?: string;
}

/** The reference page of a document. `specHref` is where the page links the JSON document. */
export function renderReferencePage(
  doc: OpenApiDocument,
  specHref = '../openapi.json',
  options: ReferencePageOptions = {},
): string {
  const byTag = new Map<string, Operation[]>();
  for (const op of operationsOf(doc)) {
    const tag = op.operation.tags[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const nav = navigation(doc, byTag, specHref);
  const main = mainContent(doc, byTag);
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

/** The contents: the guide's sections, each tag's operations, and the JSON document. */
function navigation(doc: OpenApiDocument, byTag: ReadonlyMap<string, Operation[]>, specHref: string): string {
  return [
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
}

/** The reference itself: overview, authentication, headers, each tag's operations, and the error catalog. */
function mainContent(doc: OpenApiDocument, byTag: ReadonlyMap<string, Operation[]>): string {
  const scheme = Object.values(doc.components.securitySchemes)[0] ?? {};
  const server = doc.servers[0];
  return [
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
}
