import type { AdoptionServiceHandlers } from '@tap/contracts';
import type { AdoptionHandlerDeps } from './handler-deps.js';
import { journeyHandlers } from './journey-handlers.js';
import { planHandlers } from './plan-handlers.js';
import { stateHandlers } from './state-handlers.js';

export type { AdoptionHandlerDeps } from './handler-deps.js';

/** adoption.v1 handlers: the tenant is always the verified token's. */
export function adoptionHandlers(deps: AdoptionHandlerDeps): AdoptionServiceHandlers {
  return { ...stateHandlers(deps), ...journeyHandlers(deps), ...planHandlers(deps) };
}
