#!/usr/bin/env node
// Measures the memory (RSS) and CPU of each running service process (`node services/<name>/dist/main.js`),
// idle and under a bounded load through the gateway. The numbers behind the requests and limits in
// deploy/k8s (see docs/operations.md, "Resources"). Needs the local stack (`npm run up`) and the
// operator token in the environment:
//
//   source scripts/dev-env.sh && node scripts/measure-resources.mjs [--idle-s 10] [--load-s 20]
//     [--max-requests 20000] [--concurrency 16] [--base http://127.0.0.1:3000/api/v1] [--json]
//
// Only loopback targets are accepted; the load stops at whichever comes first of its request count
// and its duration.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';

const SERVICES = ['gateway', 'identity', 'adoption', 'entitlements'];
const PATHS = [
  '/tenant',
  '/tenant/adoption/state',
  '/entitlements/usage',
  '/tenant/adoption/next-best-action',
];
const SAMPLE_MS = 500;

const { values: args } = parseArgs({
  options: {
    'idle-s': { type: 'string', default: '10' },
    'load-s': { type: 'string', default: '20' },
    'max-requests': { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    base: { type: 'string', default: 'http://127.0.0.1:3000/api/v1' },
    json: { type: 'boolean', default: false },
  },
});
const idleMs = Number(args['idle-s']) * 1000;
const loadMs = Math.min(Number(args['load-s']), 120) * 1000;
const maxRequests = Math.min(Number(args['max-requests']), 200_000);
const concurrency = Math.min(Number(args.concurrency), 256);
const base = new URL(args.base);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) {
  console.error(`refusing to load ${base.hostname}: loopback targets only`);
  process.exit(2);
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

function processes() {
  const list = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      list.push({ pid: Number(entry), ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return list;
}

/** The services started by the local stack (`tap stack`), not other copies running on the machine (tests). */
function findPids() {
  const all = processes();
  const stack = all.find((p) => /^\S*node \S*tools\/cli\/dist\/main\.js stack/.test(p.cmd));
  if (!stack) return {};
  const pids = {};
  for (const p of all.filter((q) => q.ppid === stack.pid)) {
    for (const name of SERVICES) if (p.cmd.includes(`services/${name}/dist/main.js`)) pids[name] = p.pid;
  }
  return pids;
}

function readProc(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuSeconds: cpuTicks / clockTicks, rssMiB: rssKb / 1024 };
}

/** Samples every SAMPLE_MS until stopped; per service: max RSS, mean and peak CPU in millicores. */
function startSampler(pids) {
  const series = Object.fromEntries(Object.keys(pids).map((n) => [n, { rss: [], mcpu: [] }]));
  let last = Object.fromEntries(
    Object.entries(pids).map(([n, pid]) => [n, { ...readProc(pid), at: performance.now() }]),
  );
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) {
      const now = { ...readProc(pid), at: performance.now() };
      const prev = last[name];
      series[name].rss.push(now.rssMiB);
      series[name].mcpu.push(((now.cpuSeconds - prev.cpuSeconds) / ((now.at - prev.at) / 1000)) * 1000);
      last[name] = now;
    }
  }, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    return Object.fromEntries(
      Object.entries(series).map(([name, s]) => [
        name,
        {
          rssMaxMiB: Math.round(Math.max(...s.rss)),
          rssEndMiB: Math.round(s.rss.at(-1) ?? 0),
          cpuMeanMillicores: Math.round(s.mcpu.reduce((a, b) => a + b, 0) / Math.max(1, s.mcpu.length)),
          cpuPeakMillicores: Math.round(Math.max(...s.mcpu)),
        },
      ]),
    );
  };
}

function tokens() {
  const out = execFileSync(process.execPath, ['tools/cli/dist/main.js', 'seed', '--json'], {
    encoding: 'utf8',
  });
  return JSON.parse(out).map((t) => t.accessToken);
}

async function load(accessTokens) {
  const deadline = performance.now() + loadMs;
  const statuses = {};
  const latencies = [];
  let sent = 0;
  let failed = 0;
  const worker = async () => {
    while (sent < maxRequests && performance.now() < deadline) {
      const n = sent++;
      const url = `${base.href.replace(/\/$/, '')}${PATHS[n % PATHS.length]}`;
      const token = accessTokens[n % accessTokens.length];
      const started = performance.now();
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
  return {
    requests: latencies.length,
    seconds: Number(seconds.toFixed(1)),
    rps: Math.round(latencies.length / seconds),
    statuses,
    failed,
    p50ms: pct(0.5),
    p99ms: pct(0.99),
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const pids = findPids();
const missing = SERVICES.filter((s) => !pids[s]);
if (missing.length > 0) {
  console.error(`not running: ${missing.join(', ')} (start the stack with npm run up)`);
  process.exit(2);
}
const accessTokens = tokens();

const stopIdle = startSampler(pids);
await sleep(idleMs);
const idle = stopIdle();

const stopLoad = startSampler(pids);
const traffic = await load(accessTokens);
const loaded = stopLoad();

const result = { concurrency, idle, loaded, traffic };
if (args.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(
    `load: ${traffic.requests} requests in ${traffic.seconds} s (${traffic.rps}/s, concurrency ${concurrency}), statuses ${JSON.stringify(traffic.statuses)}, failed ${traffic.failed}, p50 ${traffic.p50ms} ms, p99 ${traffic.p99ms} ms`,
  );
  console.log('service        idle RSS  idle CPU   load RSS max  load CPU mean  load CPU peak');
  for (const name of SERVICES) {
    const i = idle[name];
    const l = loaded[name];
    console.log(
      `${name.padEnd(14)} ${`${i.rssMaxMiB} MiB`.padStart(8)}  ${`${i.cpuMeanMillicores}m`.padStart(8)}   ${`${l.rssMaxMiB} MiB`.padStart(12)}  ${`${l.cpuMeanMillicores}m`.padStart(13)}  ${`${l.cpuPeakMillicores}m`.padStart(13)}`,
    );
  }
}
