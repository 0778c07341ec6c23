export { buildApp, API_PREFIX } from './app.js';
export type { GatewayDeps } from './app.js';
export { createServiceClients } from './clients.js';
export type { ServiceClients } from './clients.js';
export { loadConfig } from './config.js';
export type { GatewayConfig } from './config.js';
export type { ApiRequestCounts, ApiRequestCountReader } from './api-request-counts.js';
export { redisSessionRevocations } from './session-revocations.js';
export type { SessionRevocations } from './session-revocations.js';
