import { describe, expect, it } from '@jest/globals';
import { identityErrors } from './errors.js';
import {
  assertMayActOnRole,
  formatInvitationToken,
  INVITATION_CLAIM_TIMEOUT_MS,
  invitationStatus,
  isUsable,
  parseInvitationToken,
  type Invitation,
} from './invitation.js';

const at = (iso: string) => new Date(iso);
const invitation = (overrides: Partial<Invitation> = {}): Invitation => ({
  id: '6f1c0a52-3a59-4a8e-9d54-0d3c9c1a2b3c',
  tenantId: 't1',
  email: 'new@example.com',
  role: 'MEMBER',
  status: 'PENDING',
  invitedBy: { id: 'u1', email: 'owner@example.com' },
  tokenHash: 'h',
  createdAt: at('2026-01-01T00:00:00Z'),
  expiresAt: at('2026-01-08T00:00:00Z'),
  claimedAt: null,
  ...overrides,
});

describe('invitation rules', () => {
  it('shows a pending invitation past its expiry as EXPIRED and not usable', () => {
    const now = at('2026-01-08T00:00:00Z');
    expect(invitationStatus(invitation(), now)).toBe('EXPIRED');
    expect(isUsable(invitation(), now)).toBe(false);
    expect(isUsable(invitation(), at('2026-01-07T23:59:59Z'))).toBe(true);
  });

  it('keeps accepted and revoked invitations unusable whatever the time', () => {
    const now = at('2026-01-02T00:00:00Z');
    expect(invitationStatus(invitation({ status: 'ACCEPTED' }), now)).toBe('ACCEPTED');
    expect(isUsable(invitation({ status: 'ACCEPTED' }), now)).toBe(false);
    expect(isUsable(invitation({ status: 'REVOKED' }), now)).toBe(false);
  });

  it('lets an abandoned claim be taken again only after its timeout', () => {
    const claimedAt = at('2026-01-02T00:00:00Z');
    const claimed = invitation({ status: 'ACCEPTING', claimedAt });
    expect(isUsable(claimed, new Date(claimedAt.getTime() + 1_000))).toBe(false);
    expect(isUsable(claimed, new Date(claimedAt.getTime() + INVITATION_CLAIM_TIMEOUT_MS + 1))).toBe(true);
  });

  it('refuses an ADMIN acting on an OWNER, and nobody else', () => {
    expect(() => assertMayActOnRole('ADMIN', 'OWNER')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN_ROLE' }),
    );
    expect(() => assertMayActOnRole('ADMIN', 'ADMIN')).not.toThrow();
    expect(() => assertMayActOnRole('OWNER', 'OWNER')).not.toThrow();
    expect(identityErrors.catalogue.FORBIDDEN_ROLE.kind).toBe('PERMISSION_DENIED');
  });

  it('parses the tokens it formats and nothing else', () => {
    const parts = { id: '6f1c0a52-3a59-4a8e-9d54-0d3c9c1a2b3c', secret: 'abcDEF0123456789_-xyz' };
    expect(parseInvitationToken(formatInvitationToken(parts))).toEqual(parts);
    for (const bad of [
      '',
      'ml_abc',
      'inv_',
      'inv_.secretsecretsecret',
      'inv_id.',
      'inv_id.short',
      `inv_id.${'a'.repeat(300)}`,
      'inv_i d.abcdefabcdefabcdef',
      'inv_id.abc$defabcdefabcdef',
    ])
      expect(parseInvitationToken(bad)).toBeUndefined();
  });
});
