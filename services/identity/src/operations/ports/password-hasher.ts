/** Password hashing and verification (argon2id). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * True when `password` matches `encoded`. With no `encoded` (no such account) it verifies
   * against a dummy hash of the same cost and answers false, so the time taken does not tell
   * whether an email address has an account.
   */
  verify(encoded: string | undefined, password: string): Promise<boolean>;
  /** Computes the dummy hash ahead, so the first unknown-email login costs what the others do. */
  prepare(): Promise<void>;
}
