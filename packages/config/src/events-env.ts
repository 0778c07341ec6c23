import { durationMs, identifier, natsUrl } from './validators.js';

/** How long JetStream remembers a message id: a producer retrying inside it is stored once. */
export const DEFAULT_EVENTS_DUPLICATE_WINDOW_MS = 2 * 60_000;

/** Where a consuming service's product events come from, and its durable consumer's name. */
export interface EventsConfig {
  readonly streamName: string;
  readonly subjectPrefix: string;
  readonly consumerName: string;
  readonly duplicateWindowMs: number;
}

/**
 * The variables every service that consumes product events reads, to spread into its parseEnv
 * specs: NATS_URL, EVENTS_STREAM, EVENTS_SUBJECT_PREFIX and EVENTS_DUPLICATE_WINDOW_MS. The
 * consumer's name is the service's own variable (`ADOPTION_CONSUMER`), declared beside it.
 */
export function eventsEnv() {
  return {
    NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
    EVENTS_STREAM: identifier({ default: 'EVENTS' }),
    EVENTS_SUBJECT_PREFIX: identifier({ default: 'events' }),
    EVENTS_DUPLICATE_WINDOW_MS: durationMs({ default: DEFAULT_EVENTS_DUPLICATE_WINDOW_MS }),
  };
}

/** The parsed variables of `eventsEnv` and the service's consumer name as its frozen events config. */
export function eventsConfig(
  env: {
    readonly EVENTS_STREAM: string;
    readonly EVENTS_SUBJECT_PREFIX: string;
    readonly EVENTS_DUPLICATE_WINDOW_MS: number;
  },
  consumerName: string,
): EventsConfig {
  return Object.freeze({
    streamName: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    consumerName,
    duplicateWindowMs: env.EVENTS_DUPLICATE_WINDOW_MS,
  });
}
