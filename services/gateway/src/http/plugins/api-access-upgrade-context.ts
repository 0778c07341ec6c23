import { unaryCall } from '@tap/grpc-kit';
import type { ServiceClients } from '../../clients.js';
import { upgradeContextFromWire } from '@tap/contracts';

/** The upgrade context shown when a tier has no API access (entitlements decides what to offer). */
export function apiAccessUpgradeContext(
  clients: ServiceClients,
): (authorization: string) => Promise<unknown> {
  return async (authorization) =>
    upgradeContextFromWire(
      await unaryCall(
        clients.entitlements,
        'GetUpgradeContext',
        { capability: 'API_ACCESS' },
        { authorization },
      ),
    );
}
