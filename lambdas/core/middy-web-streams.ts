/**
 * Stands in for `node:stream/web` inside the function bundles (an esbuild alias, see lib/bundling.ts). Its one
 * importer there is `@middy/core`, which needs `ReadableStream` only to answer a streamed response, and only in an
 * `instanceof` test. No function streams, yet the import loads Node's web streams (eight internal modules) at every
 * cold start. Here the module is loaded the first time that test runs. The local server and the tests import the
 * real module.
 */
// Why: docs/clever-parts.md#web-streams-loaded-on-first-use
type WebStreams = typeof import('node:stream/web');

let loaded: WebStreams | undefined;

/** `process.getBuiltinModule`, not `require`: the alias would turn a `require` of the module into this file. */
function webStreams(): WebStreams {
  loaded ??= process.getBuiltinModule('node:stream/web');
  return loaded;
}

/** Answers `value instanceof ReadableStream` as the real class would; it is not a class and cannot be constructed. */
export const ReadableStream = {
  [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof webStreams().ReadableStream;
  },
};
