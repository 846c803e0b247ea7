/** `npm start`: the server (bin/serve.ts), run from the JavaScript bin/built.mjs builds. */

// The dashboard page is built with esbuild's synchronous API at start-up. By default that runs esbuild in a worker
// thread with a service process that outlives the build (stopping it leaves the process unreaped); with this, each
// build is one esbuild process, started and reaped within the call. Set before esbuild is first loaded.
process.env.ESBUILD_WORKER_THREADS ??= '0';

const { runBuilt } = await import('./built.mjs');
await runBuilt('bin/serve');
