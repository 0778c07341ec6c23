export { startInfrastructure } from './start-infrastructure.js';
export { testNamespace } from './namespace.js';
export { infraUrls } from './test-env.js';
export { freeLoopbackPort } from './local/free-port.js';
export { waitForPort } from './local/wait-for-port.js';
export type { Infrastructure, InfraKind, InfraSource, StartOptions } from './infrastructure.js';
export { startLocal as startLocalServer } from './local/start-local.js';
export type { StartedServer } from './infrastructure.js';
