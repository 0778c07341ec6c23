import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../operations/ports/password-hasher.js';
import { randomSecret } from './keyed-hash.js';

// `Algorithm` is an ambient const enum, which verbatimModuleSyntax cannot read at run time: 2 is Argon2id.
const ARGON2ID: Algorithm = 2;

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** argon2id on libuv's thread pool (@node-rs/argon2 is async), so logins never block the event loop. */
export function createPasswordHasher(): PasswordHasher {
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash(randomSecret(), ARGON2_OPTIONS));
  return {
    hash: (password) => hash(password, ARGON2_OPTIONS),
    async prepare() {
      await dummyHash();
    },
    async verify(encoded, password) {
      if (encoded === undefined) {
        await verify(await dummyHash(), password).catch(() => false);
        return false;
      }
      try {
        return await verify(encoded, password);
      } catch {
        // A malformed stored hash is a data problem, never a way in.
        return false;
      }
    },
  };
}
