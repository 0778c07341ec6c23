import { readModelNoticeSubject } from '@tap/events';

/** Entitlements' notice subject (the notices themselves are @tap/events' change notices). */
export function noticeSubject(subjectPrefix: string): string {
  return readModelNoticeSubject(subjectPrefix, 'entitlements');
}
