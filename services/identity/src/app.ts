import { randomUUID } from 'node:crypto';
import { contracts } from '@tap/contracts';
import { createGrpcServer, type GrpcServer, type ServiceTls, currentRequestId } from '@tap/grpc-kit';
import { createKeyedLock } from '@tap/runtime';
import type { Logger } from '@tap/telemetry';
import {
  operatorTokens,
  redisSessionRevocations,
  revocationCheckingVerifier,
  RPC_ALLOWLIST,
} from '@tap/service-auth';
import {
  createKeySealer,
  createTokenVerifier,
  DEFAULT_REVOCATION_KEY_PREFIX,
  deriveTokenHashSecret,
} from '@tap/tokens';
import type { EntitlementsServiceClient } from '@tap/contracts';
import type { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import {
  DEFAULT_OUTBOX_RELAY_INTERVAL_MS,
  DEFAULT_REFRESH_REUSE_GRACE_MS,
  type IdentityConfig,
} from './config.js';
import { createKeyedHasher } from './crypto/keyed-hash.js';
import { createPasswordHasher } from './crypto/passwords.js';
import { identityErrors } from './domain/errors.js';
import { MAX_GRACE_USES } from './domain/session.js';
import { migrateAddressForms } from './store/migrate-address-forms.js';
import { smtpMailer } from '@tap/mail';
import { identityHandlers } from './grpc/identity-handlers.js';
import { startBackgroundJobs } from './jobs/background.js';
import { createKeyRing, KEY_POLL_INTERVAL_MS, type KeyRing } from './keys/key-ring.js';
import type { IdentityContext } from './operations/context.js';
import { oauthClientsRepository } from './store/oauth-clients-repository.js';
import { externalIdentitiesRepository } from './store/external-identities-repository.js';
import { invitationsRepository } from './store/invitations-repository.js';
import { joinRepository } from './store/join-repository.js';
import { magicLinksRepository } from './store/magic-links-repository.js';
import { redisSessionRevoker } from './store/session-revocations.js';
import { sessionsRepository } from './store/sessions-repository.js';
import { signingKeysRepository } from './store/signing-keys-repository.js';
import { tenantsRepository } from './store/tenants-repository.js';
import { usersRepository } from './store/users-repository.js';
import { seatIntentsRepository } from './store/seat-intents-repository.js';
import { entitlementsSeatLedger } from './grpc/entitlements-seat-ledger.js';
import type { SeatLedger } from './operations/ports/seat-ledger.js';
import { migrateSeats, settleStaleSeatIntents } from './operations/reconcile-seats.js';
import { createAnnouncer, type AnnouncementPassReport } from './operations/announce-changes.js';
import { createAuditTrail } from './operations/audit-trail.js';
import { deriveClientEvents, deriveMemberEvents } from './operations/identity-announcers.js';
import type { DomainEventSink } from './operations/ports/domain-events.js';
import { announcingClients, announcingUsers } from './store/announcing-repositories.js';
import { auditOutboxRepository } from './store/audit-outbox-repository.js';
import { clientAnnouncementsRepository } from './store/client-announcements-repository.js';
import { memberAnnouncementsRepository } from './store/member-announcements-repository.js';

export interface IdentityDeps {
  readonly config: Pick<IdentityConfig, 'tokens' | 'operatorToken'> & {
    /** Accepted alongside `operatorToken` while it is being rotated. */
    readonly operatorTokenPrevious?: string | undefined;
    readonly tokenHashSecret?: string | undefined;
    /** Set only while TOKEN_HASH_SECRET is rotated (docs/operations.md); requires `tokenHashSecret`. */
    readonly tokenHashSecretPrevious?: string | undefined;
    readonly sessions?: IdentityConfig['sessions'];
    /** Where revocation marks go in Redis (tests use their namespace). */
    readonly revocationKeyPrefix?: string;
    /** Magic-link mail (docs/browser-sessions.md); links are not sent without it. */
    readonly mail?: IdentityConfig['mail'];
  };
  readonly db: Db;
  /** This service's mTLS identity: callers are checked against RPC_ALLOWLIST. */
  readonly tls: ServiceTls;
  /** Revocation marks for the gateway's token check (logout, reuse, client rotation and deletion). */
  readonly redis: Redis;
  readonly logger: Logger;
  /**
   * Entitlements, the owner of MAX_USERS seats (its client as identity's certificate), asked at
   * each call so a test stack may start it after identity. `seatLedger` replaces it outright
   * (identity's own test bed, which runs no entitlements; tests/system runs the real one).
   */
  readonly entitlements: (() => EntitlementsServiceClient) | { readonly seatLedger: SeatLedger };
  /**
   * The domain stream (member.*, oauth_client.*, audit.entry_recorded). Absent: every change
   * waits in the outboxes (a test bed that does not look at events).
   */
  readonly events?: DomainEventSink;
  /** How often the outbox relay runs; DEFAULT_OUTBOX_RELAY_INTERVAL_MS by default. */
  readonly outboxRelayIntervalMs?: number;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

/** What one pass of the outbox relay did, per outbox. */
export interface OutboxRelayReport {
  readonly members: AnnouncementPassReport;
  readonly clients: AnnouncementPassReport;
  readonly audit: AnnouncementPassReport;
}

export interface IdentityApp {
  readonly grpc: GrpcServer;
  readonly keyRing: KeyRing;
  /**
   * Creates indexes, normalises stored addresses and join domains (migrate-address-forms.ts), re-seals signing keys sealed under the previous key-encryption secret,
   * loads (or creates) the signing key and computes the dummy password hash.
   */
  prepare(): Promise<void>;
  /** Key-pointer polling, the expired-session sweep and seat reconciliation, until `signal` aborts. */
  startBackground(signal: AbortSignal): void;
  /**
   * One pass of the seat reconciliation: the seat migration until it once succeeded, then the
   * intents older than `before` (default: SEAT_INTENT_GRACE_MS ago) settled. How many intents.
   */
  reconcileSeats(before?: Date): Promise<number>;
  /** The seat migration alone (every tenant's active users get seats). */
  migrateSeats(): Promise<{ tenants: number }>;
  /** One pass of the outbox relay (the background job runs it every interval). */
  relayOutbox(): Promise<OutboxRelayReport>;
}

/** Builds the identity service without listening: what tests and main.ts both use. */
export function buildApp(deps: IdentityDeps): IdentityApp {
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const sealer = createKeySealer({
    current: config.tokens.keyEncryptionSecret,
    previous: config.tokens.keyEncryptionSecretPrevious,
  });
  const keyRing = createKeyRing({
    repository: signingKeysRepository(deps.db),
    sealer,
    issuer: config.tokens.issuer,
    audience: config.tokens.audience,
  });
  const revocationPrefix = config.revocationKeyPrefix ?? DEFAULT_REVOCATION_KEY_PREFIX;
  const seatLedger =
    typeof deps.entitlements === 'function'
      ? entitlementsSeatLedger({ client: deps.entitlements, keyRing, now })
      : deps.entitlements.seatLedger;
  const locks = createKeyedLock();
  const newId = deps.newId ?? randomUUID;
  const { events } = deps;
  const announcerDeps = { locks, now, logger: deps.logger };
  const members = createAnnouncer({
    ...announcerDeps,
    kind: 'member',
    repository: memberAnnouncementsRepository(deps.db),
    derive: deriveMemberEvents,
    sink: events ?? unconfiguredSink,
  });
  const clientAnnouncer = createAnnouncer({
    ...announcerDeps,
    kind: 'oauth_client',
    repository: clientAnnouncementsRepository(deps.db),
    derive: deriveClientEvents,
    sink: events ?? unconfiguredSink,
  });
  // At once after the write, off the caller's path; what fails is the relay's.
  const announceNow = (announcer: typeof members) => (id: string) => {
    if (events) announcer.announce(id).catch(() => undefined);
  };
  const auditOutbox = auditOutboxRepository(deps.db);
  const audit = createAuditTrail({
    outbox: auditOutbox,
    sink: events,
    now,
    newId,
    requestId: currentRequestId,
    logger: deps.logger,
  });
  const ctx: IdentityContext = {
    seatLedger,
    seatIntents: seatIntentsRepository(deps.db),
    tenants: tenantsRepository(deps.db),
    users: announcingUsers(usersRepository(deps.db), announceNow(members)),
    sessions: sessionsRepository(deps.db),
    clients: announcingClients(oauthClientsRepository(deps.db), announceNow(clientAnnouncer)),
    magicLinks: magicLinksRepository(deps.db),
    joins: joinRepository(deps.db),
    externalIdentities: externalIdentitiesRepository(deps.db),
    invitations: invitationsRepository(deps.db),
    keyRing,
    locks,
    revoker: redisSessionRevoker(deps.redis, revocationPrefix),
    hasher: createKeyedHasher(
      config.tokenHashSecret ?? deriveTokenHashSecret(config.tokens.keyEncryptionSecret),
      config.tokenHashSecretPrevious,
    ),
    passwords: createPasswordHasher(),
    refreshPolicy: {
      reuseGraceMs: config.sessions?.refreshReuseGraceMs ?? DEFAULT_REFRESH_REUSE_GRACE_MS,
      maxGraceUses: MAX_GRACE_USES,
    },
    audit,
    now,
    newId,
  };
  const relayOutbox = async (): Promise<OutboxRelayReport> => {
    const idle = { pending: 0, published: 0, failed: 0 };
    if (!events) return { members: idle, clients: idle, audit: idle };
    return {
      members: await members.pass(),
      clients: await clientAnnouncer.pass(),
      audit: await audit.pass(),
    };
  };
  const keyVerifier = createTokenVerifier({
    issuer: config.tokens.issuer,
    audience: config.tokens.audience,
    fetchJwks: async () => ({ keys: await keyRing.jwks(now()) }),
    // Its own database, so as often as the signing pointer: identity is never the last verifier
    // to drop a key retired at once.
    jwksRefreshIntervalMs: KEY_POLL_INTERVAL_MS,
  });
  // A revoked session's token is refused here too, not only at the gateway (fails closed).
  const verifier = revocationCheckingVerifier(
    keyVerifier,
    redisSessionRevocations(deps.redis, revocationPrefix),
  );
  const mailer = config.mail
    ? smtpMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from })
    : undefined;
  const handlers = identityHandlers({
    ctx,
    verifier,
    signatureVerifier: keyVerifier,
    operatorTokens: operatorTokens(config.operatorToken, config.operatorTokenPrevious),
    logger: deps.logger,
    keyRetentionMs: config.tokens.keyRetentionMs,
    mail: config.mail && mailer ? { linkUrl: config.mail.magicLinkUrl, ...mailer } : undefined,
    invitationMail:
      config.mail && mailer ? { linkUrl: invitationLinkUrl(config.mail), ...mailer } : undefined,
  });
  const grpc = createGrpcServer(
    [
      {
        name: 'tap.identity.v1.IdentityService',
        definition: contracts().identity.IdentityService.service,
        implementation: handlers,
      },
    ],
    { tls: deps.tls, allowlist: RPC_ALLOWLIST },
  );
  const loadKeys = async (): Promise<void> => {
    try {
      const resealed = await keyRing.resealStoredKeys();
      if (resealed.length > 0)
        deps.logger.info(
          { kids: resealed, keyEncryptionKeyId: sealer.secretIds.current },
          'signing keys re-sealed under the current KEY_ENCRYPTION_SECRET',
        );
      await keyRing.load(now());
    } catch (error) {
      // A wrong secret is no outage of a dependency: say so plainly (ids only, never a secret).
      // prepare() is retried with backoff, so identity stays alive and not ready meanwhile.
      if (identityErrors.is(error, 'SIGNING_KEY_SEALED_UNDER_UNKNOWN_SECRET'))
        deps.logger.error({ code: error.code }, error.message);
      throw error;
    }
  };
  // While TOKEN_HASH_SECRET is rotated: how many clients still authenticate only through the
  // previous secret (re-hashed at their next grant). Zero means dropping it refuses no client.
  const reportClientsToRehash = async (): Promise<void> => {
    const clients = await ctx.clients.countHashedUnderOtherSecret(ctx.hasher.secretId);
    deps.logger.info(
      { clients, hashSecretId: ctx.hasher.secretId },
      'OAuth client secrets not yet re-hashed under the current TOKEN_HASH_SECRET',
    );
  };
  let seatsMigrated = false;
  const reconcileSeats = async (before?: Date): Promise<number> => {
    if (!seatsMigrated) {
      const migrated = await migrateSeats(ctx);
      seatsMigrated = true;
      deps.logger.info(migrated, 'seats of active users synced with entitlements');
    }
    return settleStaleSeatIntents(ctx, before);
  };
  return {
    grpc,
    keyRing,
    reconcileSeats,
    migrateSeats: () => migrateSeats(ctx),
    relayOutbox,
    async prepare() {
      await Promise.all([
        ctx.tenants.ensureIndexes(),
        ctx.users.ensureIndexes(),
        ctx.sessions.ensureIndexes(),
        ctx.clients.ensureIndexes(),
        ctx.magicLinks.ensureIndexes(),
        ctx.joins.ensureIndexes(),
        ctx.seatIntents.ensureIndexes(),
        ctx.invitations.ensureIndexes(),
        memberAnnouncementsRepository(deps.db).ensureIndexes(),
        clientAnnouncementsRepository(deps.db).ensureIndexes(),
        auditOutbox.ensureIndexes(),
      ]);
      // The first start with announcements: members and clients made before are announced once
      // (so the outbound service learns every tenant's owners), then only changes.
      const unannounced = await memberAnnouncementsRepository(deps.db).markUnannounced();
      if (unannounced > 0)
        deps.logger.info({ users: unannounced }, 'users marked for their first member.* announcement');
      // After the indexes: the users' unique email index is what refuses a merge of two accounts.
      const addresses = await migrateAddressForms(deps.db);
      if (addresses.rewritten > 0 || addresses.leftAsTheyWere.length > 0)
        deps.logger.warn(
          addresses,
          'stored e-mail addresses and join domains brought to their normalised form',
        );
      await loadKeys();
      await ctx.passwords.prepare();
      if (config.tokenHashSecretPrevious !== undefined) await reportClientsToRehash();
    },
    startBackground(signal) {
      startBackgroundJobs({
        keyRing,
        sessions: ctx.sessions,
        magicLinks: ctx.magicLinks,
        reconcileSeats: () => reconcileSeats(),
        invitations: ctx.invitations,
        relayOutbox,
        relayIntervalMs: deps.outboxRelayIntervalMs ?? DEFAULT_OUTBOX_RELAY_INTERVAL_MS,
        now,
        logger: deps.logger,
        signal,
      });
      // The migration at start, without waiting a whole interval (entitlements may still be
      // starting: the periodic pass tries again).
      reconcileSeats().catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'seat reconciliation at start failed; retried by the job'),
      );
    },
  };
}

/**
 * The console's acceptance page: INVITATION_URL, else `/console/accept-invitation` on the origin
 * of the magic-link page (the console and the web app's landings share one origin).
 */
function invitationLinkUrl(mail: NonNullable<IdentityConfig['mail']>): string {
  return mail.invitationUrl ?? new URL('/console/accept-invitation', mail.magicLinkUrl).href;
}

/** Where events go when no bus is configured: nowhere, and the outboxes keep them. */
const unconfiguredSink: DomainEventSink = {
  publish: () => Promise.reject(new Error('no event bus configured')),
  isRefused: () => false,
};
