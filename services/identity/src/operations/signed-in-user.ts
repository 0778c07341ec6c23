/** The signed-in user a team or session operation acts for (from a verified user token). */
export interface SignedInUser {
  readonly userId: string;
  readonly tenantId: string;
  readonly role: string;
  /** The session of the calling token (`sid`): "current" in the list, kept by "end the others". */
  readonly sessionId: string;
}
