/** Three projects, one per test layer; `npm test` runs them in order. */
const swc = [
  '@swc/jest',
  { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
const shared = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  // @middy/core 7 ships ESM only; map it to its entry file and let swc transform it.
  moduleNameMapper: { '^@middy/([^/]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  setupFiles: ['<rootDir>/test/setup-env.js'],
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
