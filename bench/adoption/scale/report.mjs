/** Issue #23's targets. */
export const TARGETS = {
  drainPerSecond: 5_000,
  visibleP50Ms: 100,
  visibleP99Ms: 250,
  stateP50Ms: 10,
  /** Each size's figure within this fraction of the first size's. */
  band: 0.2,
  readsRatio: 0.15,
  readsP99Ms: 50,
  rssMb: 300,
};

const n0 = (/** @type {number} */ x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '—');
const n1 = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const n2 = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/**
 * Prints the tables and one PASS/FAIL line per target; returns how many failed.
 * @param {any} report the run's results (run.mjs)
 */
export function printReport(report) {
  const log = (/** @type {string} */ line) => console.log(line);
  /** @type {string[]} */
  const verdicts = [];
  const check = (/** @type {boolean} */ ok, /** @type {string} */ text) =>
    verdicts.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  log(
    `\nmachine: ${report.machine}, load average at start ${report.loadAverage.start.join(' ')}, at end ${report.loadAverage.end.join(' ')}`,
  );
  log(`gateway answer reuse: ${report.answerReuseMs} ms`);

  log(
    `\nA. one ENTERPRISE tenant at each number of distinct products, ${n0(report.settings.drainEvents)} new products timed at each (ratio to the first size in brackets)`,
  );
  log(
    `${'products'.padStart(9)} ${'drained ev/s'.padStart(18)} ${'publish ev/s'.padStart(12)} ${'trip ms'.padStart(7)} ${'visible p50 ms'.padStart(16)} ${'visible p99 ms'.padStart(16)} ${'unseen'.padStart(6)} ${'state p50 ms'.padStart(16)} ${'RSS MB'.padStart(7)}`,
  );
  const [first] = report.scale;
  /** @param {number} x @param {number | undefined} base */
  const ratio = (x, base) => (base && Number.isFinite(x) ? x / base : NaN);
  for (const row of report.scale) {
    const r = {
      drain: ratio(row.drain.perSecond, first?.drain.perSecond),
      p50: ratio(row.paced?.latency.p50, first?.paced?.latency.p50),
      p99: ratio(row.paced?.latency.p99, first?.paced?.latency.p99),
      state: ratio(row.state?.p50, first?.state?.p50),
    };
    log(
      `${n0(row.size).padStart(9)} ${`${n0(row.drain.perSecond)} (${n2(r.drain)})`.padStart(18)} ${n0(row.drain.publishedPerSecond).padStart(12)} ${n0(row.drain.tripMs).padStart(7)} ${`${n0(row.paced?.latency.p50)} (${n2(r.p50)})`.padStart(16)} ${`${n0(row.paced?.latency.p99)} (${n2(r.p99)})`.padStart(16)} ${n0(row.paced?.unseen).padStart(6)} ${`${n1(row.state?.p50)} (${n2(r.state)})`.padStart(16)} ${n0(row.adoption?.rssMb).padStart(7)}`,
    );
    const at = `${n0(row.size)} products`;
    if (!row.drain.complete) {
      check(
        false,
        `A ${at}: drained ${n0(row.drain.perSecond)} events/s; ${n0(row.drain.applied)} of ${n0(row.drain.events)} applied when the load's budget (${n0(row.drain.budgetSeconds)} s) ran out; this size's other phases and larger sizes skipped`,
      );
      continue;
    }
    check(
      row.drain.perSecond >= TARGETS.drainPerSecond,
      `A ${at}: drained ${n0(row.drain.perSecond)} events/s ≥ ${n0(TARGETS.drainPerSecond)}${
        // Applied about as fast as published: the publisher, not the stack, set the pace.
        row.drain.perSecond >= 0.9 * row.drain.publishedPerSecond
          ? ' (as fast as the bench published: a floor)'
          : ''
      }`,
    );
    const seen = row.paced.unseen === 0;
    check(
      seen && row.paced.latency.p50 <= TARGETS.visibleP50Ms,
      `A ${at}: publish → visible p50 ${n0(row.paced.latency.p50)} ms ≤ ${TARGETS.visibleP50Ms} ms at ${n0(row.paced.offeredPerSecond)}/s${seen ? '' : ` (${row.paced.unseen} never seen)`}`,
    );
    check(
      seen && row.paced.latency.p99 <= TARGETS.visibleP99Ms,
      `A ${at}: publish → visible p99 ${n0(row.paced.latency.p99)} ms ≤ ${TARGETS.visibleP99Ms} ms`,
    );
    if (!row.state) {
      check(
        false,
        `A ${at}: the paced phase's backlog was not applied within its budget; state reads skipped`,
      );
      continue;
    }
    check(
      row.state.p50 <= TARGETS.stateP50Ms,
      `A ${at}: single GET /tenant/adoption/state p50 ${n1(row.state.p50)} ms ≤ ${TARGETS.stateP50Ms} ms`,
    );
    if (row === first) continue;
    for (const [name, value] of /** @type {[string, number][]} */ (Object.entries(r)))
      check(
        Math.abs(value - 1) <= TARGETS.band,
        `A ${at}: ${name} ratio to ${n0(first.size)} products ${n2(value)} within ±${TARGETS.band * 100}%`,
      );
  }
  const planned = report.settings.sizes;
  for (const size of planned.slice(report.scale.length))
    check(false, `A ${n0(size)} products: not reached (an earlier size was given up)`);

  const { rows } = report.reads;
  const bare = rows[0];
  const floor = rows.find((row) => row.floor);
  log(
    `\nB. reads of ${n0(report.reads.tenants)} ENTERPRISE tenants, each request the next tenant's client token, ${report.reads.connections} connections, ${report.reads.seconds} s each${report.reads.first ? `; first a read per tenant (${report.reads.first.perSecond} req/s, 32 at a time)` : ''}${report.reads.settled ? `, then the services' background work settled (${(report.reads.settled.waitedMs / 1_000).toFixed(0)} s, then ${report.reads.settled.storeOpsPerSecond} store operations/s)` : ''}`,
  );
  log(
    `${'case'.padEnd(44)} ${'req/s'.padStart(7)} ${'ratio'.padStart(7)} ${'÷floor'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(5)}  other answers`,
  );
  for (const row of rows) {
    const share = bare ? row.perSecond / bare.perSecond : NaN;
    const other = Object.entries(row.statuses)
      .filter(([code]) => code !== '200')
      .map(([code, count]) => `${count}×${code}`)
      .join(' ');
    const failures = `${other}${row.errors ? ` ${row.errors} errors` : ''}`.trim();
    const ofFloor = floor && row !== bare ? `${((100 * row.perSecond) / floor.perSecond).toFixed(0)}%` : '';
    log(
      `${row.case.padEnd(44)} ${String(row.perSecond).padStart(7)} ${`${(share * 100).toFixed(1)}%`.padStart(7)} ${ofFloor.padStart(7)} ${String(row.p50).padStart(5)} ${String(row.p99).padStart(5)}  ${failures}`,
    );
    // The baselines are measured, not judged.
    if (row === bare || row.floor || row.baseline) continue;
    // A case whose answers were not all 200 measured something else (quota refusals, errors).
    const clean = failures === '' ? '' : ` (not all 200: ${failures})`;
    check(
      share >= TARGETS.readsRatio && failures === '',
      `B ${row.case}: ${row.perSecond} req/s = ${(share * 100).toFixed(1)}% of bare Fastify ≥ ${TARGETS.readsRatio * 100}%${clean}`,
    );
    check(
      row.p99 <= TARGETS.readsP99Ms && failures === '',
      `B ${row.case}: p99 ${row.p99} ms ≤ ${TARGETS.readsP99Ms} ms${clean}`,
    );
  }

  const { afterScale, afterReads } = report.memory;
  log(
    `\nC. adoption process memory: after A (${n0(afterScale?.products)} products) RSS ${n0(afterScale?.rssMb)} MB; after B (+${n0(afterReads?.tenants)} tenants) RSS ${n0(afterReads?.rssMb)} MB, peak ${n0(afterReads?.peakMb)} MB, V8 heap in use ${n0(afterReads?.heapUsedMb)} MB`,
  );
  const biggest = planned[planned.length - 1];
  const full = afterReads && afterReads.products >= biggest;
  check(
    Boolean(afterReads) && afterReads.rssMb <= TARGETS.rssMb,
    `C adoption RSS ${n0(afterReads?.rssMb)} MB ≤ ${TARGETS.rssMb} MB with ${n0(afterReads?.tenants)} tenants + one of ${n0(afterReads?.products)} products${full ? '' : ` (the ${n0(biggest)}-product tenant was not reached)`}`,
  );
  log('');
  for (const line of verdicts) log(line);
  const failed = verdicts.filter((v) => v.startsWith('FAIL')).length;
  log(`\n${verdicts.length - failed} of ${verdicts.length} targets met`);
  return failed;
}
