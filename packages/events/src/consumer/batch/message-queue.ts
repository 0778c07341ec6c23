import type { JsMsg } from '@nats-io/jetstream';

/**
 * Messages pulled and not yet settled: the ones waiting for a batch and the ones of the batch in
 * hand. The pull side waits for room, the batch side for messages; `capacity` bounds both, so
 * nothing waits in memory long enough for its ack wait to run out.
 */
export class MessageQueue {
  private readonly waiting: { msg: JsMsg; at: number }[] = [];
  private inHand = 0;
  private closed = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly capacity: number) {}

  get length(): number {
    return this.waiting.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** When the oldest waiting message arrived (ms since epoch), or undefined. */
  firstArrival(): number | undefined {
    return this.waiting[0]?.at;
  }

  room(): number {
    return this.capacity - this.waiting.length - this.inHand;
  }

  push(msg: JsMsg): void {
    this.waiting.push({ msg, at: Date.now() });
    this.notify();
  }

  /** Moves up to `max` messages into the hand; give them back with `settled` once acked or nak'ed. */
  take(max: number): JsMsg[] {
    const taken = this.waiting.splice(0, max).map((entry) => entry.msg);
    this.inHand += taken.length;
    return taken;
  }

  settled(count: number): void {
    this.inHand -= count;
    this.notify();
  }

  /** Everything still waiting, out of the queue (to be handed back). */
  drain(): JsMsg[] {
    return this.waiting.splice(0).map((entry) => entry.msg);
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  /** Resolves at the next push, settle or close, or after `ms`, whichever comes first. */
  async changed(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let waiter: (() => void) | undefined;
    await new Promise<void>((resolve) => {
      waiter = resolve;
      this.waiters.add(resolve);
      timer = setTimeout(resolve, Math.max(0, ms));
    });
    clearTimeout(timer);
    if (waiter) this.waiters.delete(waiter);
  }

  private notify(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
