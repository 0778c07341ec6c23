import type { IdentityServiceHandlers } from '@tap/contracts';
import { accountSessionHandlers } from './account-session-handlers.js';
import { clientHandlers } from './client-handlers.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { invitationHandlers } from './invitation-handlers.js';
import { magicLinkHandlers } from './magic-link-handlers.js';
import { memberHandlers } from './member-handlers.js';
import { sessionHandlers } from './session-handlers.js';
import { tenantHandlers } from './tenant-handlers.js';

export type { IdentityHandlerDeps } from './handler-deps.js';

/** identity.v1 handlers: decode, call the domain, let unaryHandler map errors to status. */
export function identityHandlers(deps: IdentityHandlerDeps): IdentityServiceHandlers {
  return {
    ...tenantHandlers(deps),
    ...sessionHandlers(deps),
    ...clientHandlers(deps),
    ...magicLinkHandlers(deps),
    ...memberHandlers(deps),
    ...invitationHandlers(deps),
    ...accountSessionHandlers(deps),
  };
}
