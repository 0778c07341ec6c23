import { setTimeout as sleep } from 'node:timers/promises';
import type { JsMsg } from '@nats-io/jetstream';
import { redeliveryDelayMs } from '../backoff.js';
import { publishDeadLetter, type DeadLetterTarget } from '../dead-letter.js';
import { decodeMessage } from '../decode-message.js';
import type { ConsumerErrorReport, DeadLetterReason, RetryBackoff } from '../types.js';
import { startMessageSpans } from './message-spans.js';
import type { BatchConsumerOptions, BatchItem, BatchReport, TenantGroup, TenantOutcome } from './types.js';

/** Mutable counters behind BatchConsumer.stats(). */
export interface BatchCounters {
  batches: number;
  delivered: number;
  redelivered: number;
  applied: number;
  invalid: number;
  deadLettered: number;
  retried: number;
  released: number;
}

export interface BatchSettings {
  readonly durableName: string;
  readonly subjectPrefix: string;
  readonly maxEventBytes: number;
  readonly backoff: RetryBackoff;
  readonly handleBatch: BatchConsumerOptions['handleBatch'];
  readonly onInvalid: BatchConsumerOptions['onInvalid'];
  readonly onError: BatchConsumerOptions['onError'];
  readonly onBatch: BatchConsumerOptions['onBatch'];
  readonly deadLetter: DeadLetterTarget | undefined;
  readonly counters: BatchCounters;
}

interface Group extends TenantGroup {
  readonly items: readonly (BatchItem & { readonly msg: JsMsg })[];
}

/**
 * Handles one batch to the end: invalid messages are dead-lettered and acked, the valid ones go
 * to the handler grouped per tenant in stream order, each tenant's messages are acked once its
 * outcome is `ok`, and `retry` groups are offered again (only they) with backoff until they
 * succeed or `signal` aborts, when they are handed back with a nak. Never rejects.
 */
export async function handleBatch(
  settings: BatchSettings,
  msgs: JsMsg[],
  signal: AbortSignal,
): Promise<void> {
  const spans = startMessageSpans(msgs, settings.durableName, settings.subjectPrefix);
  try {
    await handleTraced(settings, msgs, signal, spans);
  } finally {
    spans.endAll();
  }
}

async function handleTraced(
  settings: BatchSettings,
  msgs: JsMsg[],
  signal: AbortSignal,
  spans: ReturnType<typeof startMessageSpans>,
): Promise<void> {
  const started = Date.now();
  const waitedMs = oldestAgeMs(msgs, started);
  const { counters } = settings;
  counters.batches += 1;
  counters.delivered += msgs.length;
  counters.redelivered += msgs.filter((msg) => msg.redelivered).length;
  const groups = await groupValid(settings, msgs);
  let pending = groups;
  let attempts = 0;
  let applied = 0;
  const deadLetteredBefore = counters.deadLettered;
  while (pending.length > 0) {
    attempts += 1;
    const outcomes = await askHandler(settings, pending);
    const again: Group[] = [];
    for (const group of pending) {
      const outcome = outcomes.get(group.tenantId) ?? missing;
      if (outcome.kind === 'ok') {
        applied += await settleApplied(settings, group, outcome.rejected ?? []);
        continue;
      }
      again.push(group);
      report(settings, outcome.error ?? new Error(outcome.reason), {
        stage: 'handler',
        willRetry: true,
        streamSeq: group.items[0]?.seq,
        deliveryCount: group.items[0]?.deliveryCount,
      });
    }
    pending = again;
    if (pending.length === 0) break;
    counters.retried += pending.length;
    // Kept, not nak'ed: a nak would let a later event of the tenant overtake these.
    for (const group of pending)
      for (const item of group.items) settle(settings, item.msg, () => item.msg.working());
    await sleep(redeliveryDelayMs(attempts, settings.backoff), undefined, { signal }).catch(() => undefined);
    if (signal.aborted) {
      for (const group of pending)
        for (const item of group.items) {
          spans.failed(item.msg, 'handed back: the consumer is stopping');
          handBack(settings, item.msg);
        }
      break;
    }
  }
  const batch: BatchReport = {
    messages: msgs.length,
    tenants: groups.length,
    applied,
    deadLettered: counters.deadLettered - deadLetteredBefore,
    attempts,
    durationMs: Date.now() - started,
    waitedMs,
  };
  try {
    settings.onBatch?.(batch);
  } catch {
    // A failing metrics hook must not leave messages unsettled.
  }
}

/** Age of the oldest message at `now`, from the server's stored timestamp (same host clock here). */
function oldestAgeMs(msgs: readonly JsMsg[], now: number): number {
  let oldest = Infinity;
  for (const msg of msgs) oldest = Math.min(oldest, msg.info.timestampNanos / 1_000_000);
  return oldest === Infinity ? 0 : Math.max(0, now - oldest);
}

const missing: TenantOutcome = { kind: 'retry', reason: 'the batch handler gave no outcome for the tenant' };

async function askHandler(
  settings: BatchSettings,
  groups: readonly Group[],
): Promise<ReadonlyMap<string, TenantOutcome>> {
  try {
    return await settings.handleBatch(
      groups.map(({ tenantId, items }) => ({ tenantId, items: items.map(publicItem) })),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new Map(groups.map((group) => [group.tenantId, { kind: 'retry', reason, error }]));
  }
}

function publicItem({ event, seq, redelivered, deliveryCount }: BatchItem): BatchItem {
  return { event, seq, redelivered, deliveryCount };
}

async function groupValid(settings: BatchSettings, msgs: JsMsg[]): Promise<Group[]> {
  const byTenant = new Map<string, (BatchItem & { msg: JsMsg })[]>();
  for (const msg of msgs) {
    const seq = msg.info.streamSequence;
    const deliveryCount = msg.info.deliveryCount;
    const decoded =
      msg.data.length > settings.maxEventBytes
        ? {
            ok: false as const,
            reason: 'OVERSIZED' as const,
            errors: [`${msg.data.length} bytes, at most ${settings.maxEventBytes} are accepted`],
          }
        : decodeMessage(msg.subject, msg.data, settings.subjectPrefix);
    if (!decoded.ok) {
      settings.counters.invalid += 1;
      const invalid = {
        reason: decoded.reason,
        errors: decoded.errors,
        subject: msg.subject,
        streamSeq: seq,
        deliveryCount,
      };
      try {
        settings.onInvalid(invalid);
      } catch (error) {
        report(settings, error, { stage: 'handler', willRetry: false, ...where(msg) });
      }
      await giveUp(settings, msg, decoded.reason, decoded.errors.join('; '));
      continue;
    }
    const item = { event: decoded.event, seq, redelivered: msg.redelivered, deliveryCount, msg };
    const list = byTenant.get(decoded.event.tenantId);
    if (list) list.push(item);
    else byTenant.set(decoded.event.tenantId, [item]);
  }
  // Redeliveries come first from the server; stream order is what the store's lastSeq expects.
  return [...byTenant].map(([tenantId, items]) => ({ tenantId, items: items.sort((a, b) => a.seq - b.seq) }));
}

async function settleApplied(
  settings: BatchSettings,
  group: Group,
  rejected: readonly { seq: number; reason: string }[],
): Promise<number> {
  const reasons = new Map(rejected.map((r) => [r.seq, r.reason]));
  let applied = 0;
  for (const item of group.items) {
    const reason = reasons.get(item.seq);
    if (reason === undefined) {
      applied += 1;
      settle(settings, item.msg, () => item.msg.ack());
      continue;
    }
    // The tenant's write already happened without this event: a missing dead letter is reported,
    // not retried (a redelivery would be skipped by lastSeq and never dead-lettered either).
    await deadLetter(settings, item.msg, 'REJECTED', reason);
    settle(settings, item.msg, () => item.msg.ack());
  }
  settings.counters.applied += applied;
  return applied;
}

/** Dead-letters an invalid message and acks it; when the dead letter cannot be stored, naks it. */
async function giveUp(
  settings: BatchSettings,
  msg: JsMsg,
  reason: DeadLetterReason,
  detail: string,
): Promise<void> {
  if (await deadLetter(settings, msg, reason, detail)) settle(settings, msg, () => msg.ack());
  else settle(settings, msg, () => msg.nak(redeliveryDelayMs(msg.info.deliveryCount, settings.backoff)));
}

async function deadLetter(
  settings: BatchSettings,
  msg: JsMsg,
  reason: DeadLetterReason,
  detail: string,
): Promise<boolean> {
  if (!settings.deadLetter) return true;
  try {
    await publishDeadLetter(settings.deadLetter, msg, reason, detail);
    settings.counters.deadLettered += 1;
    return true;
  } catch (error) {
    report(settings, error, { stage: 'dead-letter', willRetry: false, ...where(msg) });
    return false;
  }
}

/** Gives a message back to the server at once (stop, lost lease): the next owner takes it first. */
export function handBack(settings: Pick<BatchSettings, 'counters' | 'onError'>, msg: JsMsg): void {
  settings.counters.released += 1;
  settle(settings, msg, () => msg.nak());
}

function settle(settings: Pick<BatchSettings, 'onError'>, msg: JsMsg, action: () => void): void {
  try {
    action();
  } catch (error) {
    report(settings, error, { stage: 'ack', willRetry: true, ...where(msg) });
  }
}

function where(msg: JsMsg): Pick<ConsumerErrorReport, 'subject' | 'streamSeq' | 'deliveryCount'> {
  return { subject: msg.subject, streamSeq: msg.info.streamSequence, deliveryCount: msg.info.deliveryCount };
}

function report(
  settings: Pick<BatchSettings, 'onError'>,
  error: unknown,
  context: ConsumerErrorReport,
): void {
  try {
    settings.onError(error, context);
  } catch {
    // A failing logger must not leave a message unsettled.
  }
}
