/** Three projects, one per test layer; `npm test` runs them in order. */
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
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
    { ...shared, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
