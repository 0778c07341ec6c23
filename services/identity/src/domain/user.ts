import { identityErrors } from './errors.js';
import type { Role } from './roles.js';

/** A tenant member who signs in with email and password. */
export interface User {
  readonly id: string;
  readonly tenantId: string;
  /** Normalised (trimmed, lower case); unique across the platform. */
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

const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 100;
/** OWASP ASVS 2.1: at least 12 characters, long passphrases allowed, no composition rules. */
export const MIN_PASSWORD_LENGTH = 12;
/** Passphrases up to this length; argon2 would take more, the cap only bounds the work. */
export const MAX_PASSWORD_LENGTH = 128;
// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trims and lower-cases an email address: one account per address, however it is typed. */
export function normaliseEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  if (normalised.length > MAX_EMAIL_LENGTH || !EMAIL.test(normalised))
    throw identityErrors.create('EMAIL_INVALID');
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
