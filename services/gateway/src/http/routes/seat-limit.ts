import { isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import { upgradeContextFromWire } from '@tap/contracts';
import type { ServiceClients } from '../../clients.js';
import { forwardedError } from '../errors/catalogue.js';
import type { HttpError } from '../errors/http-error.js';

/**
 * Identity's LIMIT_EXCEEDED (no seat left: MAX_USERS) as the API answers it: 403 with identity's
 * `details { limit, current, requested, available }` and the upgrade context entitlements offers
 * for MAX_USERS, as API_ACCESS_NOT_IN_TIER carries its own. Undefined for any other error (the
 * error handler maps it). Without an upgrade context (entitlements unreachable) it is null.
 */
export async function seatLimitError(
  error: unknown,
  clients: ServiceClients,
  authorization: string,
): Promise<HttpError | undefined> {
  if (!isRemoteCallError(error) || error.reason !== 'LIMIT_EXCEEDED') return undefined;
  const upgradeContext = await unaryCall(
    clients.entitlements,
    'GetUpgradeContext',
    { capability: 'MAX_USERS' },
    { authorization },
  ).then(upgradeContextFromWire, () => null);
  return forwardedError(403, 'LIMIT_EXCEEDED', 'ERROR', error.message, { ...error.details, upgradeContext });
}
