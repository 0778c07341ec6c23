export { buildApp } from './app.js';
export type { AdoptionApp, AdoptionDeps } from './app.js';
export { loadConfig } from './config.js';
export type { AdoptionConfig, DriftWatchConfig } from './config.js';
export type { DriftPassReport } from './drift/drift-watch.js';
export type { DriftWatchJob } from './drift/drift-watch-job.js';
