import type { NatsConnection, Subscription } from '@nats-io/nats-core';

/** `{ tenantId, version? }` on core NATS after each write: other replicas drop older cached views. */
export interface ChangeNotice {
  readonly tenantId: string;
  readonly version?: number;
}

/** The notice subject, beside (never inside) the event stream's prefix. */
export function noticeSubject(subjectPrefix: string): string {
  return `${subjectPrefix}-cache.entitlements`;
}

/** Publishes a notice; a lost one costs at most the cache TTL of staleness on the other replicas. */
export function publishNotice(nc: NatsConnection, subject: string, notice: ChangeNotice): void {
  try {
    nc.publish(subject, JSON.stringify(notice));
  } catch {
    // A closed connection: the TTL bounds what the other replicas serve.
  }
}

/** Hands every well-formed notice to `onNotice`; anything else is ignored. */
export function subscribeNotices(
  nc: NatsConnection,
  subject: string,
  onNotice: (notice: ChangeNotice) => void,
): Subscription {
  return nc.subscribe(subject, {
    callback: (error, msg) => {
      if (error) return;
      const notice = parseNotice(msg.data);
      if (notice) onNotice(notice);
    },
  });
}

function parseNotice(data: Uint8Array): ChangeNotice | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(data));
    if (typeof value !== 'object' || value === null) return undefined;
    const { tenantId, version } = value as Record<string, unknown>;
    if (typeof tenantId !== 'string' || tenantId.length > 128) return undefined;
    if (version !== undefined && !(typeof version === 'number' && Number.isSafeInteger(version)))
      return undefined;
    return version === undefined ? { tenantId } : { tenantId, version };
  } catch {
    return undefined;
  }
}
