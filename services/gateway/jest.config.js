import preset from '../../jest.preset.js';

export default {
  ...preset,
  globalSetup: '@tap/testkit/jest-global-setup',
  globalTeardown: '@tap/testkit/jest-global-teardown',
};
