#!/usr/bin/env node
/**
 * Logging benchmark: our createLogger (pino writing to Node's process.stdout) against
 * pino's own default destination (asynchronous sonic-boom) with the same options (redaction,
 * trace mixin, formatters), in the same run. Each case
 * runs in a child process whose standard output is a pipe the parent drains, as under a
 * container runtime or the local stack; the child logs LINES request-sized lines and reports its
 * wall time and CPU. Why not pino's default: docs/foundation.md (with sonic-boom 4.2 it can hang
 * a process at exit when its reader has gone).
 *
 *   npm run build -w @tap/telemetry && node bench/logging/run.mjs
 *
 * BENCH_LINES (default 100 000) lines per run, BENCH_ROUNDS (default 3) runs per case,
 * alternating; medians are reported.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const LINES = Number(process.env['BENCH_LINES'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const TELEMETRY = fileURLToPath(new URL('../../packages/telemetry/dist/index.js', import.meta.url));
const PINO = fileURLToPath(new URL('../../node_modules/pino/pino.js', import.meta.url));

/** The child: builds one logger, logs LINES gateway-like request lines, prints its timings on stderr. */
const child = (mode) => `
  const lines = ${LINES};
  let logger;
  if (${JSON.stringify(mode)} === 'ours') {
    const { createLogger } = await import(${JSON.stringify(TELEMETRY)});
    logger = createLogger({ service: 'bench' });
  } else {
    const { createRequire } = await import('node:module');
    const pino = createRequire(import.meta.url)(${JSON.stringify(PINO)});
    const { REDACTED_PATHS } = await import(${JSON.stringify(TELEMETRY)});
    const { isSpanContextValid, trace } = await import('@opentelemetry/api');
    logger = pino({
      level: 'info',
      base: { service: 'bench' },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const context = trace.getActiveSpan()?.spanContext();
        return context && isSpanContextValid(context) ? { trace_id: context.traceId, span_id: context.spanId } : {};
      },
    });
  }
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < lines; i += 1) {
    logger.info({ reqId: 'req-' + i, res: { statusCode: 200 }, responseTime: 1.234 }, 'request completed');
    // Yield now and then, as a server between requests, so asynchronous writes can drain.
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  process.stderr.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\\n');
`;

async function runOnce(mode) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', child(mode)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  let report = '';
  proc.stdout.on('data', (chunk) => (bytes += chunk.length));
  proc.stderr.on('data', (chunk) => (report += chunk.toString()));
  const code = await new Promise((resolve) => proc.on('exit', resolve));
  if (code !== 0) throw new Error(`${mode} child exited ${code}: ${report}`);
  const last = report.trim().split('\n').at(-1) ?? '{}';
  return { ...JSON.parse(last), bytes };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  /** @type {{ ours: Array<{ ms: number, cpuMs: number, bytes: number }>, baseline: Array<{ ms: number, cpuMs: number, bytes: number }> }} */
  const results = { ours: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    results.ours.push(await runOnce('ours'));
    results.baseline.push(await runOnce('baseline'));
  }
  const row = (name, runs) => {
    const ms = median(runs.map((r) => r.ms));
    const cpuMs = median(runs.map((r) => r.cpuMs));
    return { name, ms, cpuMs, linesPerS: (LINES / ms) * 1000, usPerLine: (cpuMs * 1000) / LINES };
  };
  const ours = row('ours: createLogger (process.stdout)', results.ours);
  const base = row('baseline: pino default (async)', results.baseline);
  console.log(
    `logging bench — ${cpus().length} cores, ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, ` +
      `load ${loadavg()[0]?.toFixed(2)}, node ${process.version}`,
  );
  console.log(`${LINES} request-sized lines per run to a drained pipe, median of ${ROUNDS} runs\n`);
  const pad = (text, width) => String(text).padEnd(width);
  const num = (value, digits) => value.toFixed(digits).padStart(10);
  console.log(
    `${pad('', 36)}${'lines/s'.padStart(10)}${'CPU µs/line'.padStart(13)}${'ours ÷ this (lines/s)'.padStart(24)}`,
  );
  for (const r of [ours, base]) {
    console.log(
      `${pad(r.name, 36)}${num(r.linesPerS, 0)}${num(r.usPerLine, 2).padStart(13)}${num(ours.linesPerS / r.linesPerS, 2).padStart(24)}`,
    );
  }
  console.log(
    `\nbytes each run: ours ${median(results.ours.map((r) => r.bytes))}, baseline ${median(results.baseline.map((r) => r.bytes))}`,
  );
}

await main();
