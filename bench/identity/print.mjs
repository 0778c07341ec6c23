/** Keycloak's sizing guide: client-credentials grants and refreshes per second per vCPU. */
export const KEYCLOAK_PER_VCPU = { grants: 120, refreshes: 120 };

const fmt = (value, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

/**
 * Prints the run: a table per mode, then the ratios the issue asks for.
 * @param {any} report
 */
export function printReport(report) {
  console.log(
    `identity bench: ${report.machine}, Node ${report.node}, load average ${fmt(report.loadAverage, 1)}, ${report.seconds} s per case`,
  );
  const table = (title, rows) => {
    console.log(`\n${title}`);
    console.log('                                               CPU µs per request');
    console.log(
      'case                       req/s   p50 ms   p99 ms   gateway identity ferretdb  redis  EXISTS/req  statuses',
    );
    for (const r of rows) {
      const cpu = r.cpuMicrosPerRequest;
      console.log(
        `${r.name.padEnd(24)} ${fmt(r.perSecond).padStart(7)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${fmt(cpu.gateway).padStart(9)} ${fmt(cpu.identity).padStart(8)} ${fmt(cpu.ferretdb).padStart(8)} ${fmt(cpu.redis).padStart(6)} ${fmt(r.redisExistsPerRequest, 2).padStart(11)}  ${JSON.stringify(r.statuses)}`,
      );
    }
  };
  table(`${report.concurrency} concurrent callers`, report.concurrent);
  table('1 caller (sequential)', report.sequential);

  const byName = (rows, name) => rows.find((r) => r.name === name);
  const grants = byName(report.concurrent, 'POST /oauth/token');
  const refreshes = byName(report.concurrent, 'POST /auth/refresh');
  const checked = byName(report.concurrent, 'route, token check');
  const uncached = byName(report.concurrent, 'route, check, no cache');
  const unchecked = byName(report.concurrent, 'route, no check');
  const checkedSeq = byName(report.sequential, 'route, token check');
  const uncachedSeq = byName(report.sequential, 'route, check, no cache');
  const uncheckedSeq = byName(report.sequential, 'route, no check');
  const dbRead = byName(report.concurrent, 'db: read client by _id');
  const dbWrite = byName(report.concurrent, 'db: a rotation alone');
  const perVcpu = (rate) => rate / report.vcpus;
  // Keycloak's figure is per vCPU of its own pods, its database running elsewhere: the fair
  // counterpart is the CPU our two processes spend per request, database excluded.
  const perServiceVcpu = (row) => 1e6 / (row.cpuMicrosPerRequest.gateway + row.cpuMicrosPerRequest.identity);
  console.log('\nratios');
  for (const [label, row, reference] of [
    ['client-credentials grants', grants, KEYCLOAK_PER_VCPU.grants],
    ['refreshes', refreshes, KEYCLOAK_PER_VCPU.refreshes],
  ]) {
    console.log(
      `  ${label.padEnd(26)} ${fmt(row.perSecond)}/s on this machine = ${fmt(perVcpu(row.perSecond))}/s per vCPU with everything on it (×${fmt(perVcpu(row.perSecond) / reference, 1)} Keycloak's ${reference}); ${fmt(perServiceVcpu(row))}/s per vCPU of gateway + identity (×${fmt(perServiceVcpu(row) / reference, 1)})`,
    );
  }
  console.log(
    `  grants / the database's bare read of a client: ×${fmt(grants.perSecond / dbRead.perSecond, 2)}; refreshes / the rotation's write alone: ×${fmt(refreshes.perSecond / dbWrite.perSecond, 2)}`,
  );
  for (const [label, withCheck, withCheckSeq] of [
    ['token check (cached verification)', checked, checkedSeq],
    ['token check (jose every request)', uncached, uncachedSeq],
  ]) {
    console.log(
      `  ${label}, ${report.concurrency} callers: throughput ×${fmt(withCheck.perSecond / unchecked.perSecond, 2)} of the same route without it; gateway CPU +${fmt(withCheck.cpuMicrosPerRequest.gateway - unchecked.cpuMicrosPerRequest.gateway)} µs/request (×${fmt(withCheck.cpuMicrosPerRequest.gateway / unchecked.cpuMicrosPerRequest.gateway, 2)}), Redis CPU +${fmt(withCheck.cpuMicrosPerRequest.redis - unchecked.cpuMicrosPerRequest.redis)} µs, ${fmt(withCheck.redisExistsPerRequest, 2)} EXISTS/request`,
    );
    console.log(
      `  ${label}, 1 caller: p50 +${fmt((withCheckSeq.p50 - uncheckedSeq.p50) * 1_000)} µs (×${fmt(withCheckSeq.p50 / uncheckedSeq.p50, 2)}), p99 +${fmt((withCheckSeq.p99 - uncheckedSeq.p99) * 1_000)} µs`,
    );
  }
  console.log(
    `  one check per CPU-second: HMAC-SHA256 ${fmt(report.hashing.hmacPerSecond)}/s vs argon2id (OWASP cost) ${fmt(report.hashing.argon2idPerSecond, 1)}/s = ×${fmt(report.hashing.hmacPerSecond / report.hashing.argon2idPerSecond)}`,
  );
}
