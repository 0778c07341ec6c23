import { defineErrors } from '@tap/errors';

/** The notifications service's error catalogue. Callers branch on `code`. */
export const notificationErrors = defineErrors({
  ENDPOINT_URL_INVALID: {
    kind: 'INVALID_ARGUMENT',
    message: 'The endpoint URL must be an absolute https URL without credentials',
  },
  ENDPOINT_ADDRESS_FORBIDDEN: {
    kind: 'INVALID_ARGUMENT',
    message: 'The endpoint host resolves to a loopback, private, link-local or metadata address',
  },
  ENDPOINT_HOST_UNRESOLVED: { kind: 'INVALID_ARGUMENT', message: 'The endpoint host does not resolve' },
  EVENT_TYPES_INVALID: {
    kind: 'INVALID_ARGUMENT',
    message: 'Subscribe to one or more known event types, each named once',
  },
  ENDPOINT_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such webhook endpoint' },
  DELIVERY_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such delivery' },
  ENDPOINT_DISABLED: {
    kind: 'FAILED_PRECONDITION',
    message: 'The endpoint is disabled; enable it before sending it a test event',
  },
  CURSOR_INVALID: { kind: 'INVALID_ARGUMENT', message: 'The cursor is not one this service issued' },
  AUDIT_RANGE_INVALID: { kind: 'INVALID_ARGUMENT', message: 'The time range is not a valid range' },
  AUDIT_RANGE_TOO_LONG: { kind: 'INVALID_ARGUMENT', message: 'The time range spans more than 400 days' },
  PAYLOAD_TOO_LARGE: {
    kind: 'INVALID_ARGUMENT',
    message: 'The event body is larger than a webhook may carry',
  },
});

export type NotificationErrorCode = keyof typeof notificationErrors.catalogue;
