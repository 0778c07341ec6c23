export { buildApp } from './app.js';
export type { EntitlementsApp, EntitlementsDeps } from './app.js';
export { loadConfig } from './config.js';
export type { CleanupConfig, EntitlementsConfig, EventsConfig } from './config.js';
