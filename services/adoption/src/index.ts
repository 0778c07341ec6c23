export { buildApp } from './app.js';
export type { AdoptionApp, AdoptionDeps } from './app.js';
export { loadConfig } from './config.js';
export type { AdoptionConfig } from './config.js';
