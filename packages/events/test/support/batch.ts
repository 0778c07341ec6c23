import type { Redis } from 'ioredis';
import {
  createRedisLease,
  startBatchConsumer,
  tenantEventsFilter,
  type BatchConsumer,
  type BatchConsumerOptions,
  type ConsumerErrorReport,
  type ConsumerLease,
  type InvalidMessageReport,
  type TenantGroup,
  type TenantOutcome,
} from '../../src/index.js';
import type { EventsTestBed } from './nats.js';

/**
 * What a real store does for the batch consumer, kept in memory for these tests: per tenant the
 * sequences applied, in the order they were written, and the `lastSeq` fence (skip seq <= lastSeq).
 */
export class Ledger {
  readonly applied = new Map<string, number[]>();
  readonly lastSeq = new Map<string, number>();
  /** Every group the handler was called with, in call order. */
  readonly calls: TenantGroup[][] = [];

  apply(group: TenantGroup): void {
    const last = this.lastSeq.get(group.tenantId) ?? 0;
    const fresh = group.items.filter((item) => item.seq > last).map((item) => item.seq);
    if (fresh.length === 0) return;
    this.applied.set(group.tenantId, [...(this.applied.get(group.tenantId) ?? []), ...fresh]);
    this.lastSeq.set(group.tenantId, Math.max(last, ...fresh));
  }

  of(tenantId: string): number[] {
    return this.applied.get(tenantId) ?? [];
  }

  total(): number {
    return [...this.applied.values()].reduce((sum, seqs) => sum + seqs.length, 0);
  }

  /** A handler that applies every group and answers ok. */
  handler(): BatchConsumerOptions['handleBatch'] {
    return (groups) => {
      this.calls.push([...groups]);
      const outcomes = new Map<string, TenantOutcome>();
      for (const group of groups) {
        this.apply(group);
        outcomes.set(group.tenantId, { kind: 'ok' });
      }
      return Promise.resolve(outcomes);
    };
  }
}

export interface BatchRecorder {
  readonly invalid: InvalidMessageReport[];
  readonly errors: { error: unknown; report: ConsumerErrorReport }[];
}

/** Starts batch consumers over the test bed's stream (every tenant); stopAll() stops them. */
export function batchStarter(bed: EventsTestBed) {
  const started: BatchConsumer[] = [];
  return {
    async start(
      seen: BatchRecorder,
      options: Partial<BatchConsumerOptions> &
        Pick<BatchConsumerOptions, 'durableName' | 'handleBatch'> & { tenantId?: string },
    ): Promise<BatchConsumer> {
      const { tenantId, ...rest } = options;
      const consumer = await startBatchConsumer(bed.js, bed.jsm, {
        streamName: bed.streamName,
        subjectPrefix: bed.subjectPrefix,
        filterSubjects: tenantId ? [tenantEventsFilter(tenantId, bed.subjectPrefix)] : [],
        onInvalid: (report) => seen.invalid.push(report),
        onError: (error, report) => seen.errors.push({ error, report }),
        retryBackoff: { initialMs: 50, maxMs: 200 },
        ackWaitMs: 2_000,
        flushWindowMs: 100,
        ...rest,
      });
      started.push(consumer);
      return consumer;
    },
    async stopAll(): Promise<void> {
      await Promise.all(started.splice(0).map((consumer) => consumer.stop()));
    },
  };
}

export function batchRecorder(): BatchRecorder {
  return { invalid: [], errors: [] };
}

/** A Redis lease whose release does nothing: what a crashed process leaves behind. */
export function crashingLease(redis: Redis, key: string, ttlMs: number): ConsumerLease {
  const lease = createRedisLease({ redis, key, ttlMs });
  return { ttlMs, claim: () => lease.claim(), release: () => Promise.resolve() };
}
