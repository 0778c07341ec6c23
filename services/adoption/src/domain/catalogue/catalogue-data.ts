import type { CapabilityKey } from './capabilities.js';
import { MILESTONE_COMPLETED_EVENT } from './event-kinds.js';
import type { EventKind } from './event-kinds.js';
import type { Chapter, InternalStage, MilestoneDefinition, PathProfile } from './milestone-definition.js';

interface Draft {
  key: string;
  title: string;
  chapter: Chapter;
  stage: InternalStage;
  /** Trigger event; omitted for a MANUAL milestone. */
  on?: EventKind;
  start?: EventKind;
  count?: number;
  deps?: readonly string[];
  capability?: CapabilityKey;
  only?: PathProfile;
}

const BOTH: readonly PathProfile[] = ['SUPPLIER', 'SVC'];

// The list order is the display order: changing it is a catalogue change (bump CATALOGUE_VERSION).
// prettier-ignore
const DRAFTS: readonly Draft[] = [
  { key: 'company_profile_completed', title: 'Complete your company profile', chapter: 1, stage: 'SETUP', on: 'company.profile_completed' },
  { key: 'kickoff_call_held', title: 'Hold the onboarding kickoff call', chapter: 1, stage: 'SETUP', deps: ['company_profile_completed'] },
  { key: 'first_teammate_invited', title: 'Invite a teammate', chapter: 1, stage: 'TEAM', on: 'user.invited', deps: ['company_profile_completed'] },
  { key: 'first_teammate_joined', title: 'Get a teammate on board', chapter: 1, stage: 'TEAM', on: 'user.joined', start: 'user.invited', deps: ['first_teammate_invited'] },
  { key: 'first_product_created', title: 'Create your first product', chapter: 2, stage: 'ACTIVATION', on: 'product.created', deps: ['company_profile_completed'] },
  { key: 'first_product_updated', title: 'Enrich a product with more data', chapter: 2, stage: 'ACTIVATION', on: 'product.updated', deps: ['first_product_created'] },
  { key: 'first_version_published', title: 'Publish a product version', chapter: 2, stage: 'ACTIVATION', on: 'product_version.published', deps: ['first_product_created'] },
  { key: 'catalogue_of_ten', title: 'Build a catalogue of 10 products', chapter: 2, stage: 'ACTIVATION', on: 'product.created', count: 10, deps: ['first_product_created'] },
  { key: 'first_connection_made', title: 'Connect with your first partner', chapter: 3, stage: 'CONNECTION', on: 'connection.accepted', start: 'connection.invited', deps: ['company_profile_completed'] },
  { key: 'sharing_policy_published', title: 'Publish a data-sharing policy', chapter: 3, stage: 'CONNECTION', on: 'policy.published', deps: ['first_connection_made'] },
  { key: 'first_data_exchange', title: 'Share product data with a partner', chapter: 3, stage: 'EXCHANGE', on: 'product.viewed', deps: ['first_product_created', 'first_connection_made'] },
  { key: 'first_data_request_sent', title: 'Send your first data request', chapter: 3, stage: 'EXCHANGE', on: 'data_request.sent', deps: ['first_connection_made'], only: 'SVC' },
  { key: 'first_data_request_answered', title: 'Close your first data request', chapter: 3, stage: 'EXCHANGE', on: 'data_request.answered', start: 'data_request.sent', deps: ['first_connection_made', 'first_data_request_sent'] },
  { key: 'five_connections', title: 'Connect with five partners', chapter: 3, stage: 'CONNECTION', on: 'connection.accepted', count: 5, deps: ['first_connection_made'] },
  { key: 'first_import_completed', title: 'Complete a bulk import', chapter: 4, stage: 'AUTOMATION', on: 'import.completed', deps: ['first_product_created'], capability: 'BULK_UPLOAD' },
  { key: 'import_mapping_approved', title: 'Approve your import field mapping', chapter: 4, stage: 'AUTOMATION', deps: ['first_import_completed'], capability: 'BULK_UPLOAD' },
  { key: 'first_integration_succeeded', title: 'Run an API integration', chapter: 4, stage: 'AUTOMATION', on: 'integration.succeeded', deps: ['first_product_created'], capability: 'API_ACCESS' },
  { key: 'import_routine', title: 'Run five bulk imports', chapter: 4, stage: 'AUTOMATION', on: 'import.completed', count: 5, deps: ['first_import_completed'], capability: 'BULK_UPLOAD' },
  { key: 'first_trace_recorded', title: 'Record a traceability link', chapter: 5, stage: 'TRACEABILITY', on: 'trace.recorded', deps: ['first_version_published'], capability: 'TRACEABILITY' },
  { key: 'expected_data_set_defined', title: 'Define an expected data set', chapter: 5, stage: 'TRACEABILITY', on: 'data_set.expected', deps: ['first_data_request_sent'], capability: 'EXPECTED_DATA_SETS', only: 'SVC' },
  { key: 'ten_traces_recorded', title: 'Record 10 traceability links', chapter: 5, stage: 'TRACEABILITY', on: 'trace.recorded', count: 10, deps: ['first_trace_recorded'], capability: 'TRACEABILITY' },
  { key: 'first_passport_published', title: 'Publish a Digital Product Passport', chapter: 6, stage: 'COMPLIANCE', on: 'passport.published', deps: ['first_version_published'], capability: 'DIGITAL_PRODUCT_PASSPORTS' },
  { key: 'ten_passports_published', title: 'Publish 10 Digital Product Passports', chapter: 6, stage: 'COMPLIANCE', on: 'passport.published', count: 10, deps: ['first_passport_published'], capability: 'DIGITAL_PRODUCT_PASSPORTS' },
  { key: 'network_of_ten', title: 'Grow your network to 10 partners', chapter: 7, stage: 'EXPANSION', on: 'connection.accepted', count: 10, deps: ['five_connections'] },
  { key: 'reliable_responder', title: 'Answer 10 data requests', chapter: 7, stage: 'EXPANSION', on: 'data_request.answered', count: 10, deps: ['first_data_request_answered'], only: 'SUPPLIER' },
  { key: 'supplier_cascade_started', title: 'Start a supplier cascade', chapter: 7, stage: 'EXPANSION', on: 'cascade.started', deps: ['first_data_request_sent'], capability: 'SUPPLIER_CASCADE', only: 'SVC' },
  { key: 'supplier_cascade_completed', title: 'Complete a supplier cascade', chapter: 7, stage: 'EXPANSION', on: 'cascade.completed', start: 'cascade.started', deps: ['supplier_cascade_started'], capability: 'SUPPLIER_CASCADE', only: 'SVC' },
  { key: 'network_review_completed', title: 'Review your network analytics with us', chapter: 7, stage: 'EXPANSION', deps: ['five_connections'], capability: 'NETWORK_ANALYTICS' },
];

function toDefinition(draft: Draft, index: number): MilestoneDefinition {
  const capability = draft.capability ?? null;
  return Object.freeze({
    key: draft.key,
    title: draft.title,
    chapter: draft.chapter,
    internalStage: draft.stage,
    completionMode: draft.on === undefined ? 'MANUAL' : 'EVENT_DETECTED',
    triggerEvent: draft.on ?? MILESTONE_COMPLETED_EVENT,
    startEvent: draft.start ?? null,
    targetCount: draft.count ?? 1,
    dependsOn: Object.freeze([...(draft.deps ?? [])]),
    displayOrder: (index + 1) * 10,
    requiredCapability: capability,
    paidTeaser: capability !== null,
    profiles: draft.only === undefined ? BOTH : Object.freeze([draft.only]),
  });
}

/** Every milestone of the current catalogue version, in display order. */
export const MILESTONE_DEFINITIONS: readonly MilestoneDefinition[] = Object.freeze(DRAFTS.map(toDefinition));
