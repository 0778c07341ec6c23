/** Where a piece of infrastructure came from: the environment, a container, or a local binary. */
export type InfraSource = 'env' | 'containers' | 'local';

export type InfraKind = 'mongo' | 'nats' | 'redis';

export interface Infrastructure {
  readonly mongoUrl: string;
  readonly natsUrl: string;
  readonly redisUrl: string;
  readonly sources: Readonly<Record<InfraKind, InfraSource>>;
  /** Stops whatever this process started; URLs taken from the environment are left alone. */
  stop(): Promise<void>;
}

/** A server this kit started, with the URL to reach it and the way to stop it. */
export interface StartedServer {
  readonly url: string;
  /** The process id of a local server (for tests that pause it); undefined for containers. */
  readonly pid?: number | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `free`: any free loopback port (tests). `standard`: 27017/4222/6379 (the local stack). */
  readonly ports?: 'free' | 'standard';
  /** Where local servers keep their data; a fresh temporary folder when absent. */
  readonly dataDir?: string;
  /** Read MONGO_URL / NATS_URL / REDIS_URL from here first. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const STANDARD_PORTS: Readonly<Record<InfraKind, number>> = { mongo: 27017, nats: 4222, redis: 6379 };

export const ENV_URL_NAMES: Readonly<Record<InfraKind, string>> = {
  mongo: 'MONGO_URL',
  nats: 'NATS_URL',
  redis: 'REDIS_URL',
};
