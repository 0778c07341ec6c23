export { buildApp } from './app.js';
export type { AdoptionApp, AdoptionConsumer, AdoptionDeps } from './app.js';
export type { BatchTiming } from './events/batch-timings.js';
export { loadConfig } from './config.js';
/** The inline summary of a stored aggregate document, whichever shape it was written in (for tests reading the store). */
export { storedSummary } from './store/aggregate-document.js';
export type { AdoptionConfig, DriftWatchConfig, OutboxConfig } from './config.js';
export type { DriftPassReport } from './operations/run-drift-pass.js';
export type { DriftWatchJob } from './jobs/drift-watch-job.js';
export type { OutboxPassReport } from './operations/relay-outbox.js';
export type { OutboxRelayJob } from './jobs/outbox-relay-job.js';
