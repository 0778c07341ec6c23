import { describe, expect, it } from '@jest/globals';
import type { AccessClaims } from '@tap/tokens';
import { requireUser } from './require-user.js';

const user: AccessClaims = {
  subject: 'u',
  kind: 'user',
  tenantId: 't',
  role: 'MEMBER',
  scopes: ['dpp:read'],
  sessionId: 's',
  tokenId: 'j',
  expiresAt: 0,
};
const client: AccessClaims = { ...user, kind: 'client', role: '' };
const codeOf = (run: () => void) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('requireUser', () => {
  it("refuses an OAuth client's token as SCOPE_MISSING, whatever its scopes", () => {
    expect(codeOf(() => requireUser(client))).toBe('SCOPE_MISSING');
    expect(codeOf(() => requireUser(client, ['OWNER', 'ADMIN']))).toBe('SCOPE_MISSING');
  });

  it('refuses a user whose role is not listed as ROLE_FORBIDDEN, and lets listed roles through', () => {
    expect(codeOf(() => requireUser(user, ['OWNER', 'ADMIN']))).toBe('ROLE_FORBIDDEN');
    expect(codeOf(() => requireUser({ ...user, role: 'ADMIN' }, ['OWNER', 'ADMIN']))).toBeUndefined();
    expect(codeOf(() => requireUser(user))).toBeUndefined();
  });
});
