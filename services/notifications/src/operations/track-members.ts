import type { DomainEvent } from '@tap/contracts';
import type { MembersRepository } from './ports.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Keeps the tenant's members as the member.* events tell them (whom owner notices are mailed
 * to): joined and reactivated make the user an active member with a role, a role change
 * changes it, a deactivation ends it. Any other event changes nothing.
 */
export async function trackMembers(
  deps: { readonly members: MembersRepository },
  event: DomainEvent,
): Promise<void> {
  const userId = event.subject['userId'];
  if (!userId) return;
  const data = event.data;
  const base = {
    tenantId: event.tenantId,
    userId,
    at: new Date(event.occurredAt),
    email: text(data['email']),
  };
  switch (event.type) {
    case 'member.joined':
    case 'member.reactivated':
      return deps.members.apply({ ...base, active: true, role: text(data['role']) });
    case 'member.role_changed':
      return deps.members.apply({ ...base, active: true, role: text(data['to']) });
    case 'member.deactivated':
      return deps.members.apply({ ...base, active: false });
    default:
      return;
  }
}
