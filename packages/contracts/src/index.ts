export { PROTO_LOADER_OPTIONS, PROTO_ROOT } from './proto-loader-options.js';
export { contracts } from './load-contracts.js';
export type * from './identity.js';
export type * from './adoption.js';
export type * from './entitlements.js';
export type * from './notifications.js';
export type * from './usage-history.js';
export { PRODUCT_EVENT_KINDS, isProductEventKind } from './events/product-event.js';
export { nameBasedId } from './events/name-based-id.js';
export type { ProductEvent, ProductEventEnvelope, ProductEventKind } from './events/product-event.js';
export {
  DEFAULT_EVENT_SUBJECT_PREFIX,
  eventSubject,
  allEventsSubject,
  DEFAULT_DOMAIN_SUBJECT_PREFIX,
  DEFAULT_DOMAIN_STREAM,
  domainEventSubject,
} from './events/subjects.js';
export {
  DOMAIN_EVENT_TYPES,
  OUTBOUND_EVENT_TYPES,
  isDomainEventType,
  isOutboundEventType,
} from './events/domain-event.js';
export type {
  DomainEvent,
  DomainEventType,
  OutboundEventType,
  AuditEntryData,
} from './events/domain-event.js';
export { parseDomainEvent, DOMAIN_EVENT_SCHEMA_PATH } from './events/validate-domain-event.js';
export type { ParsedDomainEvent } from './events/validate-domain-event.js';
export { parseProductEvent, PRODUCT_EVENT_SCHEMA_PATH } from './events/validate-product-event.js';
export type { ParsedProductEvent } from './events/validate-product-event.js';
export { upgradeContextFromWire, upgradeContextToWire } from './upgrade-context.js';
export type { UpgradeContextView, UpgradeTierRef } from './upgrade-context.js';
export { CAPABILITY_KEYS, isCapabilityKey } from './capabilities.js';
export type { CapabilityKey } from './capabilities.js';
export { API_REQUEST_DAYS_TTL_S, apiRequestDaysKey } from './api-request-days.js';
// The public vocabularies: the OpenAPI document's enums and the services' rules read the same lists.
export * from './identity-vocabulary.js';
export * from './entitlement-vocabulary.js';
export * from './adoption-vocabulary.js';
