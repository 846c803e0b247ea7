// @middy/* 7 publishes ESM only (its package "exports" lists only "import"), so require() cannot resolve it even
// though Node >= 20.19 can load ES modules through require(). The local server, CLI and benchmark run as CommonJS
// under tsx; this preload resolves those package names to their entry files. Bundles (esbuild) and jest
// (moduleNameMapper) resolve them on their own.
const Module = require('node:module');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveEsmOnly(request, ...rest) {
  const match = /^@middy\/([a-z0-9-]+)$/.exec(request);
  if (match)
    return resolveFilename.call(this, path.join(root, 'node_modules', '@middy', match[1], 'index.js'), ...rest);
  return resolveFilename.call(this, request, ...rest);
};
