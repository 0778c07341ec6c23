import { normaliseEmailAddress } from './address.js';
import { identityErrors } from './errors.js';
import type { Role } from './roles.js';

/** A tenant member who signs in with email and password. */
export interface User {
  readonly id: string;
  readonly tenantId: string;
  /** Normalised (`normaliseEmail`: NFKC, lower case, IDNA domain); unique across the platform. */
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly role: Role;
  readonly active: boolean;
  readonly createdAt: Date;
  /** When a manager deactivated the user (absent while active, and for a join never approved). */
  readonly deactivatedAt?: Date | null;
  /** The last sign-in on any path (password, magic link, SSO, sign-up); null before the first. */
  readonly lastSignInAt?: Date | null;
}

/** What a new user needs; the password is hashed before anything is stored. */
export interface NewUserInput {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}

const MAX_NAME_LENGTH = 100;
/** OWASP ASVS 2.1: at least 12 characters, long passphrases allowed, no composition rules. */
export const MIN_PASSWORD_LENGTH = 12;
/** Passphrases up to this length; argon2 would take more, the cap only bounds the work. */
export const MAX_PASSWORD_LENGTH = 128;
/**
 * An email address in the one form identity compares and stores (trimmed, NFKC, lower case,
 * IDNA domain: `address.ts`): one account per address, however it is typed. EMAIL_INVALID for
 * anything else, confusable compatibility characters included.
 */
export function normaliseEmail(email: string): string {
  const normalised = normaliseEmailAddress(email);
  if (normalised === undefined) throw identityErrors.create('EMAIL_INVALID');
  return normalised;
}

/** Throws PASSWORD_TOO_WEAK unless the password is 12 to 128 characters long. */
export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH)
    throw identityErrors.create('PASSWORD_TOO_WEAK');
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH)
    throw identityErrors.create('USER_NAME_INVALID');
  return trimmed;
}

/** Validates a new user (active from the start); the caller hashes `input.password` after this. */
export function newUser(
  input: NewUserInput,
  ids: { id: string; tenantId: string },
  role: Role,
  now: Date,
): User {
  const email = normaliseEmail(input.email);
  checkPassword(input.password);
  return {
    id: ids.id,
    tenantId: ids.tenantId,
    email,
    firstName: cleanName(input.firstName),
    lastName: cleanName(input.lastName),
    role,
    active: true,
    createdAt: now,
  };
}
