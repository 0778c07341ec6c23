export { buildApp } from './app.js';
export type { IdentityApp, IdentityDeps } from './app.js';
export { loadConfig } from './config.js';
export type { IdentityConfig } from './config.js';
