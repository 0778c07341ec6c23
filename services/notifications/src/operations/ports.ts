import type { OutboundEventType } from '@tap/contracts';
import type { AuditEntry } from '../domain/index.js';

/** One signing secret of an endpoint, sealed at rest; `expiresAt` set on the old one during a rotation. */
export interface StoredSecret {
  readonly sealed: string;
  readonly expiresAt: Date | null;
}

export interface WebhookEndpoint {
  readonly id: string;
  readonly tenantId: string;
  readonly url: string;
  readonly types: readonly OutboundEventType[];
  readonly enabled: boolean;
  readonly secrets: readonly StoredSecret[];
  /** The first failure with no success since; null while the endpoint answers. */
  readonly failingSince: Date | null;
  readonly disabledReason: 'FAILING' | 'BY_USER' | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event to one endpoint: a row of the durable delivery queue. */
export interface Delivery {
  readonly id: string;
  readonly tenantId: string;
  readonly endpointId: string;
  /** The event id: the `webhook-id` of every attempt. */
  readonly eventId: string;
  readonly eventType: string;
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The delivery log: one row per attempt. */
export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly tenantId: string;
  readonly endpointId: string;
  readonly attempt: number;
  readonly at: Date;
  readonly status: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly nextAttemptAt: Date | null;
}

/** An event kept for the feed (30 days). */
export interface FeedEntry {
  /** Orders the feed; the cursor carries it. */
  readonly position: string;
  readonly eventId: string;
  readonly tenantId: string;
  readonly type: OutboundEventType;
  readonly receivedAt: Date;
  readonly body: string;
}

export interface EndpointsRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  find(tenantId: string, id: string): Promise<WebhookEndpoint | null>;
  list(tenantId: string): Promise<WebhookEndpoint[]>;
  /** The enabled endpoints of a tenant subscribed to `type`. */
  subscribedTo(tenantId: string, type: OutboundEventType): Promise<WebhookEndpoint[]>;
  replaceSecrets(tenantId: string, id: string, secrets: readonly StoredSecret[], at: Date): Promise<boolean>;
  /** Sets failingSince if it is unset (the first failure of a run). */
  markFailing(tenantId: string, id: string, at: Date): Promise<void>;
  markHealthy(tenantId: string, id: string): Promise<void>;
  disable(tenantId: string, id: string, reason: 'FAILING' | 'BY_USER', at: Date): Promise<void>;
  /** Changes types and/or enabled; null when the tenant has no such endpoint. */
  update(
    tenantId: string,
    id: string,
    change: { types?: readonly OutboundEventType[]; enabled?: boolean },
    at: Date,
  ): Promise<WebhookEndpoint | null>;
  delete(tenantId: string, id: string): Promise<boolean>;
}

export interface DeliveriesRepository {
  /** Queues a delivery; one per (endpoint, event): a second enqueue of the same pair changes nothing. */
  enqueue(delivery: Delivery): Promise<void>;
  /**
   * Claims up to `max` of the oldest due PENDING deliveries for `leaseMs` (another worker, or this
   * one after a crash, takes them again once the lease ends), never more for one endpoint than
   * `perEndpoint` minus what `inFlight` says is already running for it.
   */
  claimDue(
    now: Date,
    leaseMs: number,
    max: number,
    inFlight: ReadonlyMap<string, number>,
    perEndpoint: number,
  ): Promise<Delivery[]>;
  recordOutcome(
    id: string,
    outcome: {
      status: DeliveryStatus;
      attempts: number;
      nextAttemptAt: Date | null;
      lastStatus: number | null;
      lastError: string | null;
    },
    at: Date,
  ): Promise<void>;
  find(tenantId: string, id: string): Promise<Delivery | null>;
  listForEndpoint(tenantId: string, endpointId: string, limit: number): Promise<Delivery[]>;
  /** Puts a delivery back in the queue, due now (replay). */
  requeue(tenantId: string, id: string, at: Date): Promise<boolean>;
  /** The retention: DELIVERED and FAILED deliveries last changed before `cutoff` go (never a PENDING one). */
  deleteFinishedBefore(cutoff: Date): Promise<number>;
}

export interface AttemptsRepository {
  append(attempt: DeliveryAttempt): Promise<void>;
  list(tenantId: string, deliveryId: string): Promise<DeliveryAttempt[]>;
  /** The retention: attempts made before `cutoff` go. */
  deleteBefore(cutoff: Date): Promise<number>;
}

/** A member's state as a member.* event tells it. */
export interface MemberChange {
  readonly tenantId: string;
  readonly userId: string;
  readonly active: boolean;
  readonly email?: string | undefined;
  readonly role?: string | undefined;
  readonly at: Date;
}

/** The tenants' members, projected from member.* events (whom owner notices go to). */
export interface MembersRepository {
  /** Writes the member's state unless a newer event already did (events may be redelivered). */
  apply(change: MemberChange): Promise<void>;
  /** The addresses of the tenant's active OWNERs. */
  ownerAddresses(tenantId: string): Promise<string[]>;
}

/** A mail to a tenant's OWNERs, still to send. */
export interface OwnerNotice {
  /** `endpoint_disabled:<endpointId>:<disabledAt>`: one per disabling. */
  readonly id: string;
  readonly tenantId: string;
  readonly kind: 'endpoint_disabled';
  readonly endpointId: string;
  readonly url: string;
  readonly createdAt: Date;
}

export interface OwnerNoticesRepository {
  /** Idempotent on the id. */
  add(notice: OwnerNotice): Promise<void>;
  /** Not sent yet, oldest first. */
  pending(limit: number): Promise<OwnerNotice[]>;
  markSent(id: string, at: Date, recipients: number): Promise<void>;
  deleteSentBefore(cutoff: Date): Promise<number>;
}

export interface FeedRepository {
  /** Keeps the event once (by event id); returns false when it was already kept. */
  append(entry: Omit<FeedEntry, 'position'>): Promise<boolean>;
  /** Entries after `position` (all when null), oldest first, of `types` when given. */
  after(
    tenantId: string,
    position: string | null,
    types: readonly OutboundEventType[] | null,
    limit: number,
  ): Promise<FeedEntry[]>;
  deleteReceivedBefore(cutoff: Date): Promise<number>;
}

export type SendOutcome = { ok: true; status: number } | { ok: false; error: string };

/** Sends one POST; resolves (never rejects) with the status or a network error code. */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome>;
}

/** Seals and opens signing secrets; signs content with a secret. */
export interface SecretKeeper {
  generate(): string;
  seal(secret: string): string;
  open(sealed: string): string;
  sign(secret: string, content: string): string;
}

/** What an audit query filters on (the tenant is always one). */
export interface AuditFilter {
  readonly action?: string;
  readonly actorId?: string;
  readonly from: Date;
  readonly to: Date;
}

/** The tenant audit log: append and read only; no method changes an entry. */
export interface AuditRepository {
  /** Keeps the entry once (by id); false when it was already kept. */
  append(entry: AuditEntry): Promise<boolean>;
  /** Newest first, before `position` when given. */
  page(
    tenantId: string,
    filter: AuditFilter,
    position: string | null,
    limit: number,
  ): Promise<Array<{ position: string; entry: AuditEntry }>>;
  deleteOccurredBefore(cutoff: Date): Promise<number>;
}
