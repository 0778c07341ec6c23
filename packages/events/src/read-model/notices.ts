import type { NatsConnection, Subscription } from '@nats-io/nats-core';

/** `{ tenantId, version? }` on core NATS after each write: other replicas drop older cached views. */
export interface ChangeNotice {
  readonly tenantId: string;
  readonly version?: number;
}

/** A service's notice subject, beside (never inside) the event stream's prefix. */
export function readModelNoticeSubject(subjectPrefix: string, service: string): string {
  return `${subjectPrefix}-cache.${service}`;
}

/** Publishes a notice; a lost one costs at most the cache TTL of staleness on the other replicas. */
export function publishChangeNotice(nc: NatsConnection, subject: string, notice: ChangeNotice): void {
  try {
    nc.publish(subject, JSON.stringify(notice));
  } catch {
    // A closed connection: the TTL bounds what the other replicas serve.
  }
}

/** Hands every well-formed notice to `onNotice`; anything else is ignored. */
export function subscribeChangeNotices(
  nc: NatsConnection,
  subject: string,
  onNotice: (notice: ChangeNotice) => void,
): Subscription {
  return nc.subscribe(subject, {
    callback: (error, msg) => {
      if (error) return;
      const notice = parseChangeNotice(msg.data);
      if (notice) onNotice(notice);
    },
  });
}

/** The notice in `data`, or undefined for anything malformed (a notice is never trusted blindly). */
export function parseChangeNotice(data: Uint8Array): ChangeNotice | undefined {
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

/** Publishing and listening, wired to one cache's `changed`. */
export interface ChangeNotices {
  /** Tells the other replicas (call after this replica's own cache was told). */
  publish(tenantId: string, version?: number): void;
  stop(): void;
}

/** Listens for the other replicas' notices (handing them to `changed`) and publishes this one's. */
export function startChangeNotices(
  nc: NatsConnection,
  subject: string,
  changed: (tenantId: string, version?: number) => void,
): ChangeNotices {
  const subscription = subscribeChangeNotices(nc, subject, (notice) =>
    changed(notice.tenantId, notice.version),
  );
  return {
    publish: (tenantId, version) =>
      publishChangeNotice(nc, subject, version === undefined ? { tenantId } : { tenantId, version }),
    stop: () => subscription.unsubscribe(),
  };
}

/** What `whileHeard` watches of a connection. */
export type HearingConnection = Pick<NatsConnection, 'flush' | 'status' | 'isClosed'>;

/**
 * Tells `onListening` whether notices subscribed on `nc` can arrive: true once the server has the
 * subscriptions (a flush after subscribing), false at a disconnect, a close or a slow-consumer cut
 * (notices may have been dropped), true again once a reconnect has re-subscribed. A cache that
 * trusts notices for longer while they are heard forgets everything at each switch. Returns stop
 * (which reports false).
 */
export function whileHeard(nc: HearingConnection, onListening: (listening: boolean) => void): () => void {
  let stopped = false;
  const hearOnceSubscribed = (): void => {
    nc.flush().then(
      () => onListening(!stopped && !nc.isClosed()),
      () => onListening(false),
    );
  };
  hearOnceSubscribed();
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (status.type === 'disconnect' || status.type === 'close') onListening(false);
      else if (status.type === 'reconnect') hearOnceSubscribed();
      else if (status.type === 'slowConsumer') {
        onListening(false);
        hearOnceSubscribed();
      }
    }
  })().catch(() => onListening(false));
  return () => {
    stopped = true;
    onListening(false);
  };
}

/** A replica's read-model changes: applied here at once, told to the other replicas once started. */
export interface ChangeChannel {
  /** A write of this replica: `local` now, and a notice on the subject while started. */
  changed(tenantId: string, version?: number): void;
  /**
   * Hands the other replicas' notices on `subject` to `local` and publishes there; tells
   * `onListening` (if given) whether those notices can arrive (`whileHeard`). Returns stop.
   */
  start(nc: NatsConnection, subject: string, onListening?: (listening: boolean) => void): () => void;
}

/**
 * The one place a service joins its cache (`local`, e.g. a versioned cache's `changed`) to the
 * notices: writers call `changed` whether or not NATS is there yet (before `start` a write only
 * reaches this replica's cache; the TTL bounds what the others serve meanwhile).
 */
export function createChangeChannel(local: (tenantId: string, version?: number) => void): ChangeChannel {
  let notices: ChangeNotices | undefined;
  return {
    changed(tenantId, version) {
      local(tenantId, version);
      notices?.publish(tenantId, version);
    },
    start(nc, subject, onListening) {
      const started = startChangeNotices(nc, subject, local);
      notices = started;
      const stopHearing = onListening ? whileHeard(nc, onListening) : () => undefined;
      return () => {
        if (notices === started) notices = undefined;
        stopHearing();
        started.stop();
      };
    },
  };
}
