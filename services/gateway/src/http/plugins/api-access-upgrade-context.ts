import { unaryCall } from '@tap/grpc-kit';
import type { ServiceClients } from '../../clients.js';
import { upgradeContextJson } from '../routes/entitlements-json.js';

/** The upgrade context shown when a tier has no API access (entitlements decides what to offer). */
export function apiAccessUpgradeContext(
  clients: ServiceClients,
): (authorization: string) => Promise<unknown> {
  return async (authorization) =>
    upgradeContextJson(
      await unaryCall(
        clients.entitlements,
        'GetUpgradeContext',
        { capability: 'API_ACCESS' },
        { authorization },
      ),
    );
}
