import { describe, expect, it } from '@jest/globals';
import type { AccessClaims } from '@tap/tokens';
import { checkRequirement } from './requirements.js';

const user: AccessClaims = {
  subject: 'u',
  kind: 'user',
  tenantId: 't',
  role: 'MEMBER',
  scopes: ['products:read'],
  sessionId: 's',
  tokenId: 'j',
  expiresAt: 0,
};
const client: AccessClaims = { ...user, kind: 'client', role: '', scopes: ['dpp:read'] };

describe('route requirements', () => {
  it('lets anything through when a route asks nothing', () => {
    expect(checkRequirement(client, undefined)).toBeUndefined();
  });

  it('refuses a missing scope with 403 insufficient_scope naming it', () => {
    const refusal = checkRequirement(client, { scope: 'products:read' });
    expect(refusal).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect(refusal?.headers?.['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="products:read"',
    );
    expect(checkRequirement(user, { scope: 'products:read' })).toBeUndefined();
  });

  it("refuses a client's token where a user's is needed, and a user whose role is not listed", () => {
    expect(checkRequirement(client, { users: true })).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope' },
    });
    expect(checkRequirement(client, { roles: ['OWNER'] })).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope' },
    });
    expect(checkRequirement(user, { roles: ['OWNER', 'ADMIN'] })).toMatchObject({
      status: 403,
      body: { success: false, error: { code: 'ROLE_FORBIDDEN' } },
    });
    expect(checkRequirement({ ...user, role: 'ADMIN' }, { roles: ['OWNER', 'ADMIN'] })).toBeUndefined();
  });
});
