import type { Role } from '../../domain/roles.js';
import type { User } from '../../domain/user.js';

/** Where a user belongs and whether it may sign in: what an invitation's acceptance changes. */
export interface UserPlacement {
  readonly tenantId: string;
  readonly role: Role;
  readonly active: boolean;
}

/** Users, one document each, email unique across the platform. */
export interface UsersRepository {
  ensureIndexes(): Promise<void>;
  /** Throws EMAIL_TAKEN when the address already has an account anywhere on the platform. */
  insert(user: User, passwordHash: string): Promise<void>;
  /** The user and password hash for a login (email already normalised). */
  findCredentials(email: string): Promise<{ user: User; passwordHash: string } | undefined>;
  findInTenant(tenantId: string, userId: string): Promise<User | undefined>;
  /** Replaces the password hash; the updated user, or undefined when there is no such email. */
  setPasswordHash(email: string, passwordHash: string, now: Date): Promise<User | undefined>;
  remove(tenantId: string, userId: string): Promise<void>;
  /** Marks a user of the tenant active (clears any deactivation); the user, or undefined. */
  activate(tenantId: string, userId: string): Promise<User | undefined>;
  /** Marks a user of the tenant inactive, deactivated at `now`; the user, or undefined. */
  deactivate(tenantId: string, userId: string, now: Date): Promise<User | undefined>;
  /** Replaces the user's role; the user after, or undefined. */
  setRole(tenantId: string, userId: string, role: Role): Promise<User | undefined>;
  /** Records a sign-in (members list "last sign-in"). */
  recordSignIn(userId: string, at: Date): Promise<void>;
  /** The tenant's members: active users and deactivated ones (not joins awaiting approval). */
  listMembers(tenantId: string): Promise<User[]>;
  /** Ids of the tenant's active users (the seats it should hold). */
  listActiveIds(tenantId: string): Promise<string[]>;
  /** Tenant ids that have users, in order, after `after`, at most `limit` (the seat migration). */
  listTenantIds(after: string | null, limit: number): Promise<string[]>;
  /**
   * Compare-and-set of a user's tenant, role and active flag: only while the user is exactly at
   * `from`. The moved user, or undefined when it was not (the account changed meanwhile).
   */
  place(userId: string, from: UserPlacement, to: UserPlacement): Promise<User | undefined>;
}
