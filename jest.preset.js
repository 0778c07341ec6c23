/**
 * Shared jest settings: TypeScript through swc, native ESM (run jest with
 * --experimental-vm-modules). Every workspace runs two projects:
 *
 *   unit          src/**\/*.test.ts next to the code; no infrastructure, no globalSetup, seconds
 *   integration   test/**\/*.test.ts; with `infrastructure: true` the run's real FerretDB, NATS
 *                 and Redis come from @tap/testkit's globalSetup
 *
 * `npm test` (scripts/test.sh) runs both; `npm run test:unit` only the unit projects
 * (`jest --selectProjects unit`). A project's globalSetup runs only when one of its tests does,
 * so a unit run starts no server.
 */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/**
 * One bound per test for both projects: jest reads `testTimeout` from the top-level config only
 * (a project's own is ignored, and the 5 s default would apply). Generous for a loaded machine,
 * never a budget to meet.
 */
const TEST_TIMEOUT_MS = 60_000;

/**
 * The jest config of the workspace in `dir` (its `import.meta.dirname`): the unit and the
 * integration project. `infrastructure` starts the shared servers for the integration project.
 */
export function workspaceProjects(dir, { infrastructure = false } = {}) {
  return {
    testTimeout: TEST_TIMEOUT_MS,
    projects: [
      {
        ...base,
        displayName: 'unit',
        rootDir: dir,
        testMatch: ['<rootDir>/src/**/*.test.ts'],
      },
      {
        ...base,
        displayName: 'integration',
        rootDir: dir,
        testMatch: ['<rootDir>/test/**/*.test.ts'],
        ...(infrastructure
          ? {
              globalSetup: '@tap/testkit/jest-global-setup',
              globalTeardown: '@tap/testkit/jest-global-teardown',
            }
          : {}),
      },
    ],
  };
}
