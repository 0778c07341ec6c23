import { isOutboundEventType, type OutboundEventType } from '@tap/contracts';
import { notificationErrors } from './errors.js';

/** At least one known outbound type, none twice. */
export function checkEventTypes(types: readonly string[]): OutboundEventType[] {
  const unknown = types.filter((t) => !isOutboundEventType(t));
  if (types.length === 0 || unknown.length > 0 || new Set(types).size !== types.length)
    throw notificationErrors.create('EVENT_TYPES_INVALID', { details: { unknown } });
  return types as OutboundEventType[];
}
