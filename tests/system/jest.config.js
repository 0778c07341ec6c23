import preset from '../../jest.preset.js';

export default {
  ...preset,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '@tap/testkit/jest-global-setup',
  globalTeardown: '@tap/testkit/jest-global-teardown',
};
