import type { KeyedHasher } from './ports/keyed-hasher.js';
import type { PasswordHasher } from './ports/password-hasher.js';
import type { RefreshPolicy } from '../domain/session.js';
import type { KeyRing } from '../keys/key-ring.js';
import type { ExternalIdentitiesRepository } from './ports/external-identities-repository.js';
import type { InvitationsRepository } from './ports/invitations-repository.js';
import type { JoinRepository } from './ports/join-repository.js';
import type { KeyedLock } from '@tap/runtime';
import type { MagicLinksRepository } from './ports/magic-links-repository.js';
import type { OAuthClientsRepository } from './ports/oauth-clients-repository.js';
import type { SessionRevoker } from './ports/session-revocations.js';
import type { SessionsRepository } from './ports/sessions-repository.js';
import type { TenantsRepository } from './ports/tenants-repository.js';
import type { UsersRepository } from './ports/users-repository.js';
import type { SeatLedger } from './ports/seat-ledger.js';
import type { SeatIntentsRepository } from './ports/seat-intents-repository.js';
import type { AuditTrail } from './audit-trail.js';

/** What identity's operations work with: repositories, keys, hashers, clock and ids. */
export interface IdentityContext {
  readonly tenants: TenantsRepository;
  readonly users: UsersRepository;
  readonly sessions: SessionsRepository;
  readonly clients: OAuthClientsRepository;
  readonly magicLinks: MagicLinksRepository;
  readonly joins: JoinRepository;
  readonly externalIdentities: ExternalIdentitiesRepository;
  /** Entitlements' MAX_USERS seats: taken before any user becomes active (operations/seats.ts). */
  readonly seatLedger: SeatLedger;
  readonly seatIntents: SeatIntentsRepository;
  readonly invitations: InvitationsRepository;
  readonly keyRing: KeyRing;
  readonly revoker: SessionRevoker;
  /** Orders writes to one session or client within this process (FerretDB, see KeyedLock). */
  readonly locks: KeyedLock;
  readonly hasher: KeyedHasher;
  readonly passwords: PasswordHasher;
  readonly refreshPolicy: RefreshPolicy;
  /** The tenant's audit log, through identity's outbox (never a secret, a token or a password). */
  readonly audit: Pick<AuditTrail, 'record'>;
  readonly now: () => Date;
  readonly newId: () => string;
}
