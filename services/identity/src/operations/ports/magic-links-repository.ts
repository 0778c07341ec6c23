/** What a magic link does when it is redeemed. */
export type MagicLinkIntent =
  | { readonly kind: 'sign-in'; readonly userId: string; readonly tenantId: string }
  /** SSO found an account with the provider's email: the mailbox confirms before the link is made. */
  | {
      readonly kind: 'link';
      readonly userId: string;
      readonly tenantId: string;
      readonly provider: string;
      readonly subject: string;
    }
  | {
      readonly kind: 'sign-up';
      readonly email: string;
      readonly companyName: string;
      readonly firstName: string;
      readonly lastName: string;
    };

/** Single-use magic-link tokens, by keyed hash. */
export interface MagicLinksRepository {
  ensureIndexes(): Promise<void>;
  insert(hash: string, intent: MagicLinkIntent, now: Date, expiresAt: Date): Promise<void>;
  /** Marks the link used if it is unused and unexpired; its intent, or undefined (one winner). */
  consume(hash: string, now: Date): Promise<MagicLinkIntent | undefined>;
  /** Deletes links that expired before `before`, used or not; how many. */
  deleteExpired(before: Date): Promise<number>;
}
