/** @typedef {import('ioredis').Redis} Redis */

/**
 * Round trips per check, counted on the client: every command ioredis sends goes through
 * `sendCommand`, so wrapping it on the instance counts what crosses the network (no MONITOR).
 * Alongside, the server's `INFO commandstats` delta counts every command Redis executed,
 * including those a script runs inside Redis (which cost no round trip), and the time Redis
 * spent in EVALSHA/EVAL (which includes the commands the script ran): Redis's CPU per check.
 * @param {Redis} client the connection the checks use
 * @param {Redis} admin another connection, for INFO
 * @param {(i: number) => Promise<unknown>} check
 * @param {number} checks
 */
export async function countRoundTrips(client, admin, check, checks) {
  const original = client.sendCommand.bind(client);
  let sent = 0;
  client.sendCommand = (command, stream) => {
    sent += 1;
    return original(command, stream);
  };
  const before = await commandStats(admin);
  try {
    for (let i = 0; i < checks; i += 1) await check(i);
  } finally {
    client.sendCommand = original;
  }
  const after = await commandStats(admin);
  // The admin connection's INFO between the two readings counts once; take it off.
  return {
    roundTrips: sent / checks,
    redisCommands: (after.calls - before.calls - 1) / checks,
    redisMicros: (after.scriptMicros - before.scriptMicros) / checks,
  };
}

/** @param {Redis} admin */
async function commandStats(admin) {
  const info = await admin.info('commandstats');
  let calls = 0;
  let scriptMicros = 0;
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    calls += Number(match[2]);
    if (match[1] === 'evalsha' || match[1] === 'eval') scriptMicros += Number(match[3]);
  }
  return { calls, scriptMicros };
}
