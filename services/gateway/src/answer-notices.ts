import { readModelNoticeSubject, subscribeChangeNotices } from '@tap/events';
import type { AnswerCache } from './http/answer-cache.js';

/**
 * The services whose change notices alter adoption's answers: adoption's aggregates and plan
 * chains, and entitlements' tenant views (a tier change moves the rung and the locked milestones).
 */
export const ANSWER_NOTICE_SOURCES = ['adoption', 'adoption-plans', 'entitlements'] as const;

/** What the listener needs of a NATS connection (the gateway only ever subscribes). */
type NoticeConnection = Parameters<typeof subscribeChangeNotices>[0];

/**
 * Tells `answers` of every change the services announce (`{ tenantId, version }` on
 * `<prefix>-cache.<service>`, docs/adoption-model.md "Read models") and keeps it listening only
 * while the notices can arrive: from the moment the server has the subscriptions (a flush) until
 * the connection drops, and again after a reconnect has re-subscribed. A notice is never trusted
 * for more than dropping answers: a forged one costs a cache miss. Returns stop.
 */
export function listenForAnswerChanges(
  nc: NoticeConnection,
  subjectPrefix: string,
  answers: AnswerCache,
): () => void {
  let stopped = false;
  const subscriptions = ANSWER_NOTICE_SOURCES.map((service) =>
    subscribeChangeNotices(nc, readModelNoticeSubject(subjectPrefix, service), (notice) =>
      answers.changed(notice.tenantId),
    ),
  );
  const listenOnceSubscribed = (): void => {
    nc.flush().then(
      () => answers.setListening(!stopped && !nc.isClosed()),
      () => answers.setListening(false),
    );
  };
  listenOnceSubscribed();
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (status.type === 'disconnect' || status.type === 'close') answers.setListening(false);
      else if (status.type === 'reconnect') listenOnceSubscribed();
    }
  })().catch(() => answers.setListening(false));
  return () => {
    stopped = true;
    answers.setListening(false);
    for (const subscription of subscriptions) subscription.unsubscribe();
  };
}
