export { buildApp } from './app.js';
export type { EntitlementsApp, EntitlementsDeps } from './app.js';
export { loadConfig } from './config.js';
export type { CleanupConfig, EntitlementsConfig, EventsConfig } from './config.js';
// The catalogue's own upgrade answer, so other packages' tests assert against it rather than a copy.
export { buildUpgradeContext, getTier } from './domain/index.js';
