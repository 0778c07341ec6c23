export { notificationErrors } from './errors.js';
export type { NotificationErrorCode } from './errors.js';
export { checkEndpointUrl, bareHost, MAX_ENDPOINT_URL_LENGTH } from './endpoint-url.js';
export type { CheckedEndpointUrl } from './endpoint-url.js';
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  DEFAULT_DISABLE_AFTER_FAILING_MS,
  nextAttemptAt,
  shouldDisable,
} from './retry-schedule.js';
export { signedContent, signatureHeader, webhookHeaders, MAX_WEBHOOK_BODY_BYTES } from './signing.js';
export { encodeCursor, decodeCursor } from './cursor.js';
export { checkEventTypes } from './event-types.js';
export {
  AUDIT_RETENTION_DAYS,
  MAX_AUDIT_RANGE_MS,
  AUDIT_CSV_COLUMNS,
  auditCsv,
  checkAuditRange,
} from './audit.js';
export type { AuditEntry } from './audit.js';
