/**
 * Three projects, one per test layer. `npm test` runs them in one jest run, so the workers take files of every layer
 * as they come free instead of waiting for a layer's slowest file before the next layer starts.
 */
const { availableParallelism } = require('node:os');

const swc = [
  '@swc/jest',
  { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
const shared = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  // The project runs as ES modules; jest runs the tests as CommonJS compiled by swc, whose require() finds no entry
  // in @middy/core (its exports name only `import`). Jest's own mapping points it at that entry for swc to compile.
  // @scure/base and @noble/hashes (ESM only, reached through cognito-local's otplib) are compiled the same way.
  moduleNameMapper: { '^@middy/([^/]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@scure|@noble)/)'],
  setupFiles: ['<rootDir>/test/setup-env.cjs'],
  testEnvironment: 'node',
};
module.exports = {
  // Jest's default, one worker fewer than the cores, is a single worker on 2 cores: every file then runs in band,
  // and the second core idles while a test waits for a server, a child process or a timeout. Two at least.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker that has run its last file still frees its heap (half a gigabyte or more) once its exit listeners have
  // run: 0.75 to 0.94 s measured here, past jest's 500 ms, after which jest kills it and reports that it "failed to
  // exit gracefully" although nothing was left open. It gets 3 s.
  workerGracefulExitTimeout: 3000,
  // Jest prints one `Tests:` line for the whole run (the total that .ci/run reports); this adds one line per layer.
  reporters: ['default', '<rootDir>/test/layer-summary-reporter.cjs'],
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/integration/default-timeout.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
    { ...shared, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
