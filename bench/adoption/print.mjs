import process from 'node:process';

/** @param {string} text */
const line = (text) => void process.stdout.write(`${text}\n`);
const fixed = (/** @type {number} */ n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Prints the report as two small tables with ratios against the baselines.
 * @param {{
 *   machine: string; loadAverage: number; node: string; infrastructure: object;
 *   backlog: { tenants: number; eventsPerTenant: number };
 *   throughput: Record<'adoption' | 'jetstreamNoop' | 'mongoPushOnly', { events: number; seconds: number; perSecond: number }>;
 *   latency: Record<'adoption' | 'jetstreamNoop', { samples: number; p50: number; p99: number }>;
 *   history?: Array<{ prior: number; events: number; seconds: number; perSecond: number }>;
 * }} r
 */
export function printReport(r) {
  const { adoption, jetstreamNoop, mongoPushOnly } = r.throughput;
  line(`adoption bench — ${r.machine}, load ${fixed(r.loadAverage, 2)}, node ${r.node}`);
  line(`backlog: ${r.backlog.tenants} tenants × ${r.backlog.eventsPerTenant} events\n`);
  line('throughput (events/s)              events   seconds   events/s   adoption ÷ this');
  /** @type {Array<[string, { events: number; seconds: number; perSecond: number }]>} */
  const throughputRows = [
    ['adoption consumer (ours)', adoption],
    ['baseline: JetStream, no-op handler', jetstreamNoop],
    ['baseline: Mongo $push+$inc only', mongoPushOnly],
  ];
  for (const [name, row] of throughputRows) {
    const ratio = fixed(adoption.perSecond / row.perSecond, 2);
    line(
      `${String(name).padEnd(36)}${String(row.events).padStart(6)}${fixed(row.seconds, 2).padStart(10)}${fixed(row.perSecond).padStart(11)}${ratio.padStart(18)}`,
    );
  }
  const ours = r.latency.adoption;
  const base = r.latency.jetstreamNoop;
  line('\nevent → visible (ms)                samples       p50       p99   p50 ratio   p99 ratio');
  /** @type {Array<[string, { samples: number; p50: number; p99: number }]>} */
  const latencyRows = [
    ['publish → GetState shows it (ours)', ours],
    ['baseline: publish → no-op handler', base],
  ];
  for (const [name, row] of latencyRows) {
    line(
      `${String(name).padEnd(36)}${String(row.samples).padStart(7)}${fixed(row.p50, 2).padStart(10)}${fixed(row.p99, 2).padStart(10)}` +
        `${fixed(ours.p50 / row.p50, 2).padStart(12)}${fixed(ours.p99 / row.p99, 2).padStart(12)}`,
    );
  }
  const history = r.history ?? [];
  const first = history[0];
  if (first === undefined) return;
  line('\none busy tenant (events/s)          prior    events   seconds   events/s   ÷ smallest history');
  for (const row of history) {
    line(
      `${'adoption consumer (ours)'.padEnd(36)}${String(row.prior).padStart(6)}${String(row.events).padStart(10)}${fixed(row.seconds, 2).padStart(10)}${fixed(row.perSecond).padStart(11)}${fixed(row.perSecond / first.perSecond, 2).padStart(21)}`,
    );
  }
}
