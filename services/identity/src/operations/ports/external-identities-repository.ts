/** Links between an OpenID Provider's subjects and our users (docs/browser-sessions.md, SSO). */
export interface ExternalIdentitiesRepository {
  find(provider: string, subject: string): Promise<{ tenantId: string; userId: string } | undefined>;
  /** Links the subject to the user; a subject already linked keeps its first user. */
  link(
    provider: string,
    subject: string,
    user: { tenantId: string; userId: string },
    now: Date,
  ): Promise<void>;
}
