import { describe, expect, it } from '@jest/globals';
import { assertKeepsAnOwner, assertMayManage, isMember } from './members.js';
import type { User } from './user.js';

const user = (role: User['role'], extra: Partial<User> = {}): User => ({
  id: 'u',
  tenantId: 't',
  email: 'u@example.com',
  firstName: 'U',
  lastName: 'V',
  role,
  active: true,
  createdAt: new Date(0),
  ...extra,
});
const code = (call: () => void) => {
  try {
    call();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe('member rules', () => {
  it('lets an OWNER manage anyone and grant OWNER', () => {
    expect(
      code(() => assertMayManage({ userId: 'a', role: 'OWNER' }, user('OWNER'), 'MEMBER')),
    ).toBeUndefined();
    expect(
      code(() => assertMayManage({ userId: 'a', role: 'OWNER' }, user('MEMBER'), 'OWNER')),
    ).toBeUndefined();
  });

  it('refuses an ADMIN touching an OWNER or granting OWNER', () => {
    const admin = { userId: 'a', role: 'ADMIN' as const };
    expect(code(() => assertMayManage(admin, user('OWNER')))).toBe('FORBIDDEN_ROLE');
    expect(code(() => assertMayManage(admin, user('MEMBER'), 'OWNER'))).toBe('FORBIDDEN_ROLE');
    expect(code(() => assertMayManage(admin, user('MEMBER'), 'ADMIN'))).toBeUndefined();
  });

  it('keeps the last active OWNER', () => {
    expect(code(() => assertKeepsAnOwner(user('OWNER'), 1, { role: 'ADMIN' }))).toBe('LAST_OWNER');
    expect(code(() => assertKeepsAnOwner(user('OWNER'), 1, { active: false }))).toBe('LAST_OWNER');
    expect(code(() => assertKeepsAnOwner(user('OWNER'), 2, { active: false }))).toBeUndefined();
    expect(code(() => assertKeepsAnOwner(user('OWNER'), 1, { role: 'OWNER' }))).toBeUndefined();
    expect(code(() => assertKeepsAnOwner(user('ADMIN'), 1, { active: false }))).toBeUndefined();
  });

  it('counts active and deactivated users as members, not joins awaiting approval', () => {
    expect(isMember(user('MEMBER'))).toBe(true);
    expect(isMember(user('MEMBER', { active: false, deactivatedAt: new Date(1) }))).toBe(true);
    expect(isMember(user('MEMBER', { active: false }))).toBe(false);
  });
});
