import type { Role } from './roles.js';

/**
 * What the bus was last told about a user's membership (kept on the user's document), or null
 * when nothing was announced yet. `joined` says whether consumers know the user as a member of
 * `tenantId` (a join request awaiting approval is inactive and was never announced).
 */
export interface AnnouncedMembership {
  readonly tenantId: string;
  readonly role: Role;
  readonly active: boolean;
  readonly joined: boolean;
}

/** The user as stored now: what the next announcement describes. */
export interface CurrentMembership {
  readonly userId: string;
  readonly tenantId: string;
  readonly email: string;
  readonly role: Role;
  readonly active: boolean;
}

export type MemberEventType =
  'member.joined' | 'member.deactivated' | 'member.reactivated' | 'member.role_changed';

/** One member.* event to publish, without its envelope's id and time. */
export interface MemberChange {
  readonly type: MemberEventType;
  readonly tenantId: string;
  readonly data: Readonly<Record<string, string>>;
}

/**
 * The member.* events that take consumers from `announced` to `current`, in order. A pure
 * function of the two states, so every replica (and every retry) derives the same events;
 * changes made while the bus was down collapse into the difference (a role changed twice and
 * back announces nothing). A user moved to another tenant (an invitation accepted) is
 * deactivated in the old one and joins the new one.
 */
export function memberChanges(
  announced: AnnouncedMembership | null,
  current: CurrentMembership,
): MemberChange[] {
  const changes: MemberChange[] = [];
  const email = current.email;
  const knownHere = announced !== null && announced.joined && announced.tenantId === current.tenantId;
  if (announced?.joined && announced.active && (!knownHere || !current.active))
    changes.push({
      type: 'member.deactivated',
      tenantId: announced.tenantId,
      data: { email, role: announced.role },
    });
  if (!current.active) return changes;
  if (!knownHere)
    changes.push({ type: 'member.joined', tenantId: current.tenantId, data: { role: current.role, email } });
  else if (!announced.active)
    changes.push({
      type: 'member.reactivated',
      tenantId: current.tenantId,
      data: { role: current.role, email },
    });
  else if (announced.role !== current.role)
    changes.push({
      type: 'member.role_changed',
      tenantId: current.tenantId,
      data: { from: announced.role, to: current.role, email },
    });
  return changes;
}

/** What is recorded as announced once `memberChanges(announced, current)` were published. */
export function announcedAfter(
  announced: AnnouncedMembership | null,
  current: CurrentMembership,
): AnnouncedMembership {
  const knownHere = announced !== null && announced.joined && announced.tenantId === current.tenantId;
  return {
    tenantId: current.tenantId,
    role: current.role,
    active: current.active,
    joined: knownHere || current.active,
  };
}
