import process from 'node:process';

/** @param {string} text */
const line = (text) => void process.stdout.write(`${text}\n`);
const fixed = (/** @type {number} */ n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** @typedef {{ events: number; seconds: number; perSecond: number }} Rate */
/** @typedef {Rate & { offeredPerSecond: number; latency: { samples: number; p50: number; p99: number } }} Paced */

/** @param {string} name @param {Paced} p @param {string} [ratio] */
const pacedLine = (name, p, ratio = '') =>
  line(
    `${name.padEnd(30)}${fixed(p.offeredPerSecond, 0).padStart(9)}${fixed(p.perSecond, 0).padStart(10)}` +
      `${String(p.latency.samples).padStart(9)}${fixed(p.latency.p50, 0).padStart(8)}${fixed(p.latency.p99, 0).padStart(8)}${ratio}`,
  );

/**
 * Prints the report as two small tables with ratios against the baselines.
 * @param {{
 *   machine: string; loadAverage: number; node: string; infrastructure: object;
 *   backlog: { tenants: number; eventsPerTenant: number };
 *   throughput: Record<'adoption' | 'jetstreamNoop' | 'mongoPushOnly', { events: number; seconds: number; perSecond: number }>;
 *   latency: Record<'adoption' | 'jetstreamNoop', { samples: number; p50: number; p99: number }>;
 *   many?: { tenants: number; drain: Rate; paced: Paced };
 *   history?: Array<{ prior: number; loadSeconds: number; drain: Rate; paced: Paced }>;
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
  if (r.many !== undefined) {
    line(`\n${r.many.tenants} tenants, every kind          events   seconds   events/s`);
    line(
      `${`backlog drained (${r.many.drain.events} applied)`.padEnd(36)}${String(r.many.drain.events).padStart(6)}${fixed(r.many.drain.seconds, 2).padStart(10)}${fixed(r.many.drain.perSecond).padStart(11)}`,
    );
    line('paced (publish → GetState, ms)   offered   applied  samples     p50     p99');
    pacedLine('steady rate, 10 tenants timed', r.many.paced);
  }
  const history = r.history ?? [];
  const first = history[0];
  if (first === undefined) return;
  line(
    '\none busy tenant, by prior history   load s   drain ev/s (÷ first)   paced: offered  applied  samples  p50 ms  p99 ms  applied ÷ first  p99 ÷ first',
  );
  for (const row of history) {
    line(
      `${String(row.prior).padStart(10)} prior events${fixed(row.loadSeconds, 1).padStart(15)}${fixed(row.drain.perSecond, 0).padStart(12)} (${fixed(row.drain.perSecond / first.drain.perSecond, 2)})` +
        `${fixed(row.paced.offeredPerSecond, 0).padStart(17)}${fixed(row.paced.perSecond, 0).padStart(9)}${String(row.paced.latency.samples).padStart(9)}` +
        `${fixed(row.paced.latency.p50, 0).padStart(8)}${fixed(row.paced.latency.p99, 0).padStart(8)}` +
        `${fixed(row.paced.perSecond / first.paced.perSecond, 2).padStart(17)}${fixed(row.paced.latency.p99 / first.paced.latency.p99, 2).padStart(13)}`,
    );
  }
}
