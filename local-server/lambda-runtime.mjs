// One Lambda execution environment for the local gateway's cdk.out mode (lambda-sandbox.ts starts it as a child
// process). Plain JavaScript, run by node without the project's TypeScript loader, so the bundle loads as Lambda's
// Node.js runtime loads it: the module `_HANDLER` names, from LAMBDA_TASK_ROOT, with nothing else on the path.
// Lambda's own runtime reports its start-up failures under these error types:
// https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html
import { existsSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs'];

class RuntimeError extends Error {
  constructor(name, message) {
    super(message);
    this.name = name;
  }
}

/** Resolves once the message is handed to the channel, so an exit right after it does not lose it. */
function send(message) {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}

function describe(error) {
  if (error instanceof Error) return { errorType: error.name, errorMessage: error.message, stack: error.stack };
  return { errorType: 'Error', errorMessage: String(error) };
}

/** `dir/file.export.path`: the module is everything up to the first dot of the last path segment. */
function splitHandler(spec) {
  const slash = spec.lastIndexOf('/');
  const dot = spec.indexOf('.', slash + 1);
  if (dot <= slash + 1 || dot === spec.length - 1)
    throw new RuntimeError('Runtime.MalformedHandlerName', 'Bad handler');
  return { moduleName: spec.slice(0, dot), exportPath: spec.slice(dot + 1).split('.') };
}

async function loadModule(root, moduleName) {
  const file = MODULE_EXTENSIONS.map((ext) => join(root, `${moduleName}${ext}`)).find((path) => existsSync(path));
  if (!file) throw new RuntimeError('Runtime.ImportModuleError', `Error: Cannot find module '${moduleName}'`);
  try {
    if (file.endsWith('.mjs')) return await import(pathToFileURL(file).href);
    try {
      return createRequire(file)(file);
    } catch (error) {
      if (error?.code !== 'ERR_REQUIRE_ESM') throw error;
      return await import(pathToFileURL(file).href);
    }
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND' || error?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new RuntimeError('Runtime.ImportModuleError', `Error: ${error.message.split('\n')[0]}`);
    }
    if (error instanceof SyntaxError) throw new RuntimeError('Runtime.UserCodeSyntaxError', String(error));
    throw error;
  }
}

async function loadHandler() {
  const spec = process.env._HANDLER ?? '';
  const { moduleName, exportPath } = splitHandler(spec);
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  confineResolution(root);
  let value = await loadModule(root, moduleName);
  for (const name of exportPath) value = value?.[name];
  if (typeof value !== 'function') {
    throw new RuntimeError('Runtime.HandlerNotFound', `${spec} is undefined or not exported`);
  }
  return value;
}

/**
 * On Lambda nothing but the task root (and the runtime's own modules) is on the module path. Here the asset may lie
 * inside a project whose node_modules Node would otherwise find, hiding a module the bundle lacks; so a module that
 * resolves outside the task root is not found, as on Lambda. (The runtime's AWS SDK is not offered either: the
 * bundles carry theirs.)
 */
function confineResolution(root) {
  const base = realpathSync(root);
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function confined(request, ...rest) {
    const resolved = resolve.call(this, request, ...rest);
    if (Module.isBuiltin(resolved) || resolved.startsWith(base + sep)) return resolved;
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  };
}

/** A handler of three parameters answers through its callback; any other returns its answer (or a promise of it). */
function call(handler, event, context) {
  if (handler.length < 3) return Promise.resolve().then(() => handler(event, context));
  return new Promise((resolve, reject) => {
    const callback = (error, result) => (error ? reject(error) : resolve(result));
    const returned = handler(event, context, callback);
    if (returned && typeof returned.then === 'function') returned.then(resolve, reject);
  });
}

// The gateway's process owns this one: when it goes, so does the environment.
process.on('disconnect', () => process.exit(0));

let handler;
try {
  handler = await loadHandler();
} catch (error) {
  await send({ type: 'init-error', ...describe(error) });
  process.exit(1);
}

process.on('message', async (message) => {
  if (message?.type !== 'invoke') return;
  const { id, event, deadline, context, traceHeader } = message;
  // Lambda's runtime sets the invocation's tracing header here, where the X-Ray SDK reads it on each call.
  if (traceHeader) process.env._X_AMZN_TRACE_ID = traceHeader;
  else delete process.env._X_AMZN_TRACE_ID;
  const fullContext = {
    ...context,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const result = await call(handler, event, fullContext);
    await send({ type: 'result', id, payload: result === undefined ? null : result });
  } catch (error) {
    await send({ type: 'error', id, ...describe(error) });
  }
});
send({ type: 'ready' });
