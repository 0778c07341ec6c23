/** @typedef {import('ioredis').Redis} Redis */

/**
 * Round trips per check, counted on the client: every command ioredis sends goes through
 * `sendCommand`, so wrapping it on the instance counts what crosses the network (no MONITOR).
 * Alongside, the server's `INFO commandstats` delta counts every command Redis executed,
 * including those a script runs inside Redis (which cost no round trip).
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
  const before = await executedCommands(admin);
  try {
    for (let i = 0; i < checks; i += 1) await check(i);
  } finally {
    client.sendCommand = original;
  }
  // The admin connection's INFO between the two readings counts once; take it off.
  const executed = (await executedCommands(admin)) - before - 1;
  return { roundTrips: sent / checks, redisCommands: executed / checks };
}

/** @param {Redis} admin */
async function executedCommands(admin) {
  const info = await admin.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) total += Number(match[1]);
  return total;
}
