import process from 'node:process';

/** @param {string} text */
const line = (text) => void process.stdout.write(`${text}\n`);
const fixed = (/** @type {number} */ n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** @typedef {{ events: number; seconds: number; perSecond: number; firstBatchMs?: number }} Rate */
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
 *   many?: { tenants: number; watched?: number; drain: Rate; paced: Paced };
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
    pacedLine(`steady rate, ${r.many.watched ?? '?'} tenants timed`, r.many.paced);
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
  line(
    `drains: ${history.map((row) => `${row.prior} prior ${row.drain.events} events in ${fixed(row.drain.seconds, 2)} s, first batch applied after ${fixed(row.drain.firstBatchMs ?? NaN, 0)} ms`).join('; ')}`,
  );
  line('\npaced phases: what each latency is over, and the consumer process meanwhile (ms)');
  const phases = [
    ...history.map((row) => [`busy, ${row.prior} prior`, row.paced]),
    ...(r.many ? [[`${r.many.tenants} tenants`, r.many.paced]] : []),
  ];
  for (const [name, p] of /** @type {Array<[string, any]>} */ (phases)) pacedDiagnostics(name, p);
}

/** @param {string} name @param {any} p */
function pacedDiagnostics(name, p) {
  const pr = p.process;
  const b = p.batches;
  line(
    `${name}: p99 over ${p.latency.samples} events timed (${p.unseen ?? 0} never seen), ` +
      `${p.polls ?? 0} GetState polls (${fixed(p.pollsPerSecond ?? NaN, 0)}/s), ${p.failedReads ?? 0} failed` +
      (p.getState ? `, a GetState p50 ${fixed(p.getState.p50)} p99 ${fixed(p.getState.p99)} ms` : ''),
  );
  if (pr)
    line(
      `  event loop delay p50 ${fixed(pr.loopDelayP50)} p99 ${fixed(pr.loopDelayP99)} max ${fixed(pr.loopDelayMax)}; ` +
        `GC ${pr.gcCount} pauses, ${fixed(pr.gcTotalMs, 0)} in all, max ${fixed(pr.gcMaxMs)} ` +
        `(major ${pr.majorGcs}, max ${fixed(pr.majorGcMaxMs)}; minor ${pr.minorGcs}, max ${fixed(pr.minorGcMaxMs)})`,
    );
  if (p.consumerErrors && Object.keys(p.consumerErrors).length > 0)
    line(`  consumer error reports by stage: ${JSON.stringify(p.consumerErrors)}`);
  if (!b || b.count === 0) return;
  const s = (/** @type {string} */ k) =>
    `${fixed(b.stages[k].p50, 0)}/${fixed(b.stages[k].p99, 0)}/${fixed(b.stages[k].max, 0)}`;
  line(
    `  ${b.count} batches (longest idle between two ${fixed(b.idleMs ?? NaN, 0)} ms), p50/p99/max: messages ${s('messages')} tenants ${s('tenants')} waited ${s('waitedMs')} ` +
      `handler ${s('handlerMs')} load ${s('loadMs')} in-process ${s('inProcessMs')} write ${s('writeMs')} ` +
      `schedule ${s('scheduleMs')} raw-log ${s('rawLogMs')} settle ${s('settleMs')} total ${s('totalMs')}`,
  );
  for (const t of b.slowest)
    line(
      `  slow batch #${t.index} of ${b.count}: ${t.messages} msgs ${t.tenants} tenants, waited ${fixed(t.waitedMs, 0)}, total ${fixed(t.totalMs, 0)} = ` +
        `handler ${fixed(t.handlerMs, 0)} (groups: load ${fixed(t.loadMs, 0)} in-process ${fixed(t.inProcessMs, 0)} write ${fixed(t.writeMs, 0)} ` +
        `schedule ${fixed(t.scheduleMs, 0)}; raw-log ${fixed(t.rawLogMs, 0)}) + settle ${fixed(t.settleMs, 0)}`,
    );
}
