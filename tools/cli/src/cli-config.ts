import { fileURLToPath } from 'node:url';
import { durationMs, natsUrl, parseEnv, secret, str, identifier } from '@tap/config';
import { DEFAULT_TLS_REFRESH_INTERVAL_MS, type TlsFiles } from '@tap/grpc-kit';
import { grpcTlsFromEnv } from '@tap/service-auth';

/** The operator certificate `npm run up` makes (.infra/pki/operator), found without configuration. */
const LOCAL_OPERATOR_PKI = fileURLToPath(new URL('../../../.infra/pki/operator/', import.meta.url));

export interface CliConfig {
  readonly identityAddress: string;
  readonly entitlementsAddress: string;
  readonly operatorToken: string;
  /** The operator's mTLS certificate: the `operator` identity of the RPC allowlist. */
  readonly grpcTls: TlsFiles;
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
    GRPC_TLS_CERT_FILE: str({ default: `${LOCAL_OPERATOR_PKI}tls.crt` }),
    GRPC_TLS_KEY_FILE: str({ default: `${LOCAL_OPERATOR_PKI}tls.key` }),
    GRPC_TLS_CA_FILE: str({ default: `${LOCAL_OPERATOR_PKI}ca.crt` }),
    GRPC_TLS_REFRESH_INTERVAL_MS: durationMs({ default: DEFAULT_TLS_REFRESH_INTERVAL_MS }),
    NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
    EVENTS_SUBJECT_PREFIX: identifier({ default: 'events' }),
    EVENTS_STREAM: identifier({ default: 'EVENTS' }),
  });
  return {
    identityAddress: e.IDENTITY_GRPC_ADDRESS,
    entitlementsAddress: e.ENTITLEMENTS_GRPC_ADDRESS,
    operatorToken: e.OPERATOR_TOKEN,
    grpcTls: grpcTlsFromEnv(e),
    natsUrl: e.NATS_URL,
    eventsSubjectPrefix: e.EVENTS_SUBJECT_PREFIX,
    eventsStream: e.EVENTS_STREAM,
  };
}
