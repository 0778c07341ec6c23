import process from 'node:process';
import { TENANTS } from './cases.mjs';

/** @param {string} text */
const line = (text) => void process.stdout.write(`${text}\n`);

/**
 * @typedef {{ perSecond: number; p50: number; p99: number }} Summary
 * @typedef {{ name: string; trips: { roundTrips: number; redisCommands: number; redisMicros: number } | undefined; sequential: Summary | undefined; concurrent: Summary | undefined }} Row
 * @typedef {{ machine: string; loadAverage: number; node: string; redis: string; concurrency: number; seconds: number; rows: Row[] }} Report
 */

const OURS = 'ours, 2 windows (1 script)';
const BASELINES = ['rlf, 2 limiters in sequence', 'rlf, 2 limiters in parallel'];

/** @param {Report} report */
export function printReport(report) {
  /** @type {(value: string | number, width: number) => string} */
  const pad = (value, width) => String(value).padStart(width);
  /** @type {(value: number | undefined, digits: number) => string} */
  const num = (value, digits) => (value === undefined ? '-' : value.toFixed(digits));
  line(
    `\nrate-limit check benchmark: ${report.machine}; node ${report.node}; redis ${report.redis}; load average ${report.loadAverage.toFixed(2)}`,
  );
  line(
    `${report.seconds} s per case and mode; sequential = 1 caller, concurrent = ${report.concurrency} callers; ${TENANTS} tenants\n`,
  );
  const header = `${'case'.padEnd(30)} ${pad('RTT/chk', 8)} ${pad('cmds/chk', 8)} ${pad('Redis µs', 8)} | ${pad('seq chk/s', 10)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} | ${pad('conc chk/s', 10)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)}`;
  line(header);
  line('-'.repeat(header.length));
  for (const row of report.rows) {
    const s = row.sequential;
    const c = row.concurrent;
    line(
      [
        row.name.padEnd(30),
        pad(num(row.trips?.roundTrips, 2), 8),
        pad(num(row.trips?.redisCommands, 2), 8),
        pad(num(row.trips?.redisMicros, 1), 8),
        '|',
        pad(num(s?.perSecond, 0), 10),
        pad(num(s?.p50, 3), 7),
        pad(num(s?.p99, 3), 7),
        '|',
        pad(num(c?.perSecond, 0), 10),
        pad(num(c?.p50, 3), 7),
        pad(num(c?.p99, 3), 7),
      ].join(' '),
    );
  }
  const ours = report.rows.find((row) => row.name === OURS);
  for (const name of BASELINES) {
    const theirs = report.rows.find((row) => row.name === name);
    if (!ours || !theirs) continue;
    /** @type {(a: number | undefined, b: number | undefined) => string} */
    const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `x${(a / b).toFixed(2)}`);
    line(`\nours / ${name}:`);
    line(
      `  sequential: checks/s ${ratio(ours.sequential?.perSecond, theirs.sequential?.perSecond)}, p50 ${ratio(ours.sequential?.p50, theirs.sequential?.p50)}, p99 ${ratio(ours.sequential?.p99, theirs.sequential?.p99)}`,
    );
    line(
      `  concurrent: checks/s ${ratio(ours.concurrent?.perSecond, theirs.concurrent?.perSecond)}, p50 ${ratio(ours.concurrent?.p50, theirs.concurrent?.p50)}, p99 ${ratio(ours.concurrent?.p99, theirs.concurrent?.p99)}`,
    );
    line(
      `  round trips per check ${ratio(ours.trips?.roundTrips, theirs.trips?.roundTrips)}, Redis CPU per check ${ratio(ours.trips?.redisMicros, theirs.trips?.redisMicros)}`,
    );
  }
  line(
    '\nRTT/chk: commands the client sent per check; cmds/chk: commands Redis executed per check, script internals included;',
  );
  line(
    'Redis µs: time Redis spent in EVALSHA/EVAL per check (its CPU cost, which bounds checks/s per Redis core).',
  );
}
