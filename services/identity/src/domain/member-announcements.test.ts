import { describe, expect, it } from '@jest/globals';
import { announcedAfter, memberChanges, type AnnouncedMembership } from './member-announcements.js';

const current = {
  userId: 'u-1',
  tenantId: 't-1',
  email: 'a@example.com',
  role: 'MEMBER' as const,
  active: true,
};
const known: AnnouncedMembership = { tenantId: 't-1', role: 'MEMBER', active: true, joined: true };

describe('member announcements, derived from what was announced and what is stored', () => {
  it('announces an active user never announced as joined, with role and e-mail', () => {
    expect(memberChanges(null, current)).toEqual([
      { type: 'member.joined', tenantId: 't-1', data: { role: 'MEMBER', email: 'a@example.com' } },
    ]);
  });

  it('announces nothing for a join request awaiting approval, and a join once approved', () => {
    const pending = { ...current, active: false };
    expect(memberChanges(null, pending)).toEqual([]);
    const after = announcedAfter(null, pending);
    expect(after.joined).toBe(false);
    expect(memberChanges(after, current).map((c) => c.type)).toEqual(['member.joined']);
  });

  it('tells a role change, a deactivation and a reactivation apart', () => {
    expect(memberChanges(known, { ...current, role: 'ADMIN' })).toEqual([
      {
        type: 'member.role_changed',
        tenantId: 't-1',
        data: { from: 'MEMBER', to: 'ADMIN', email: 'a@example.com' },
      },
    ]);
    expect(memberChanges(known, { ...current, active: false }).map((c) => c.type)).toEqual([
      'member.deactivated',
    ]);
    const deactivated = { ...known, active: false };
    expect(memberChanges(deactivated, { ...current, role: 'ADMIN' })).toEqual([
      { type: 'member.reactivated', tenantId: 't-1', data: { role: 'ADMIN', email: 'a@example.com' } },
    ]);
  });

  it('announces nothing when the stored state is what was announced (a change and its undo collapse)', () => {
    expect(memberChanges(known, current)).toEqual([]);
    expect(memberChanges(announcedAfter(known, current), current)).toEqual([]);
  });

  it('deactivates a user in the tenant it left and joins it to the one it moved to', () => {
    expect(memberChanges(known, { ...current, tenantId: 't-2', role: 'ADMIN' })).toEqual([
      { type: 'member.deactivated', tenantId: 't-1', data: { email: 'a@example.com', role: 'MEMBER' } },
      { type: 'member.joined', tenantId: 't-2', data: { role: 'ADMIN', email: 'a@example.com' } },
    ]);
  });
});
