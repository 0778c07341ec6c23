import { natsUrl, parseEnv, secret, str, identifier } from '@tap/config';

export interface CliConfig {
  readonly identityAddress: string;
  readonly entitlementsAddress: string;
  readonly operatorToken: string;
  readonly natsUrl: string;
  readonly eventsSubjectPrefix: string;
  readonly eventsStream: string;
}

/** Every variable loadCliConfig reads (the development defaults may fill only these). */
export const CLI_VARIABLES = [
  'IDENTITY_GRPC_ADDRESS',
  'ENTITLEMENTS_GRPC_ADDRESS',
  'OPERATOR_TOKEN',
  'NATS_URL',
  'EVENTS_SUBJECT_PREFIX',
  'EVENTS_STREAM',
] as const;

/** The CLI reads the same variables as the services it talks to. */
export function loadCliConfig(env: Readonly<Record<string, string | undefined>>): CliConfig {
  const e = parseEnv(env, {
    IDENTITY_GRPC_ADDRESS: str({ default: '127.0.0.1:50051' }),
    ENTITLEMENTS_GRPC_ADDRESS: str({ default: '127.0.0.1:50053' }),
    OPERATOR_TOKEN: secret(32)(),
    NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
    EVENTS_SUBJECT_PREFIX: identifier({ default: 'events' }),
    EVENTS_STREAM: identifier({ default: 'EVENTS' }),
  });
  return {
    identityAddress: e.IDENTITY_GRPC_ADDRESS,
    entitlementsAddress: e.ENTITLEMENTS_GRPC_ADDRESS,
    operatorToken: e.OPERATOR_TOKEN,
    natsUrl: e.NATS_URL,
    eventsSubjectPrefix: e.EVENTS_SUBJECT_PREFIX,
    eventsStream: e.EVENTS_STREAM,
  };
}
