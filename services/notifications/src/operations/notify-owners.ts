import type { OwnerNoticesRepository, MembersRepository } from './ports.js';

/** Notices one pass mails, at most. */
export const OWNER_NOTICE_BATCH_SIZE = 50;

export interface NotifyOwnersDeps {
  readonly notices: OwnerNoticesRepository;
  readonly members: MembersRepository;
  readonly mailer: { send(message: { to: string; subject: string; text: string }): Promise<void> };
  readonly now: () => Date;
  readonly logger: { warn(object: object, message: string): void };
}

/** What one pass did. */
export interface NotifyOwnersReport {
  readonly pending: number;
  readonly sent: number;
  /** Notices of tenants whose OWNERs this service does not know (no member.* event yet). */
  readonly unaddressed: number;
  readonly failed: number;
}

/**
 * Mails each pending notice to the tenant's active OWNERs (one message, every OWNER in `To`),
 * then marks it sent. Stops at the first SMTP failure (the mail server is most likely down): the
 * next pass tries again. The mail names the endpoint by id and URL only, never a secret.
 */
export async function notifyOwners(deps: NotifyOwnersDeps): Promise<NotifyOwnersReport> {
  const notices = await deps.notices.pending(OWNER_NOTICE_BATCH_SIZE);
  const report = { pending: notices.length, sent: 0, unaddressed: 0, failed: 0 };
  for (const notice of notices) {
    const owners = await deps.members.ownerAddresses(notice.tenantId);
    if (owners.length === 0) {
      deps.logger.warn(
        { tenantId: notice.tenantId, endpointId: notice.endpointId },
        'no OWNER address known; notice not mailed',
      );
      await deps.notices.markSent(notice.id, deps.now(), 0);
      report.unaddressed += 1;
      continue;
    }
    try {
      await deps.mailer.send({
        to: owners.join(', '),
        subject: 'A webhook endpoint was disabled',
        text:
          `The webhook endpoint ${notice.url} (id ${notice.endpointId}) kept failing and was disabled ` +
          `on ${notice.createdAt.toISOString()}. It receives no events until it is enabled again.\n\n` +
          'Its delivery log shows each failed attempt; enable it once the receiver answers 2xx, ' +
          'and replay the deliveries it missed.\n',
      });
    } catch (error) {
      report.failed += 1;
      deps.logger.warn(
        { err: error, noticeId: notice.id },
        'owner notice not mailed; the next pass tries again',
      );
      break;
    }
    await deps.notices.markSent(notice.id, deps.now(), owners.length);
    report.sent += 1;
  }
  return report;
}
