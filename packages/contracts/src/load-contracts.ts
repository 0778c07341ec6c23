import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { ProtoGrpcType as AdoptionProto } from './generated/adoption.js';
import type { ProtoGrpcType as EntitlementsProto } from './generated/entitlements.js';
import type { ProtoGrpcType as IdentityProto } from './generated/identity.js';
import type { ProtoGrpcType as NotificationsProto } from './generated/notifications.js';
import { PROTO_LOADER_OPTIONS } from './proto-loader-options.js';

function load<T>(file: string): T {
  const definition = loadSync(file, { ...PROTO_LOADER_OPTIONS });
  return grpc.loadPackageDefinition(definition) as unknown as T;
}

let cache:
  | {
      identity: IdentityProto;
      adoption: AdoptionProto;
      entitlements: EntitlementsProto;
      notifications: NotificationsProto;
    }
  | undefined;

/** The loaded service contracts, typed by the generated code. Loaded once per process. */
export function contracts(): {
  identity: IdentityProto['tap']['identity']['v1'];
  adoption: AdoptionProto['tap']['adoption']['v1'];
  entitlements: EntitlementsProto['tap']['entitlements']['v1'];
  notifications: NotificationsProto['tap']['notifications']['v1'];
} {
  cache ??= {
    identity: load<IdentityProto>('tap/identity/v1/identity.proto'),
    adoption: load<AdoptionProto>('tap/adoption/v1/adoption.proto'),
    entitlements: load<EntitlementsProto>('tap/entitlements/v1/entitlements.proto'),
    notifications: load<NotificationsProto>('tap/notifications/v1/notifications.proto'),
  };
  return {
    identity: cache.identity.tap.identity.v1,
    adoption: cache.adoption.tap.adoption.v1,
    entitlements: cache.entitlements.tap.entitlements.v1,
    notifications: cache.notifications.tap.notifications.v1,
  };
}
