import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach: loopback, private (RFC 1918, unique-local), link-local
 * (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT, "this network",
 * multicast and reserved ranges, and their IPv4-mapped IPv6 forms.
 */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(net, prefix, 'ipv4');
  forbidden.addSubnet(`::ffff:${net}`, 96 + prefix, 'ipv6');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
  ['fd00:ec2::', 32],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv6');

/** True for an address no webhook may reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return forbidden.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Where a host may be reached, or why not. */
export type ResolvedTarget =
  | { readonly ok: true; readonly address: string; readonly family: 4 | 6 }
  | { readonly ok: false; readonly reason: 'UNRESOLVED' | 'FORBIDDEN' };

/**
 * Resolves `host` ourselves and refuses it when any of its addresses is forbidden (a name with
 * one public and one private address could be steered to the private one). Hosts on the
 * development allowlist (WEBHOOK_DEV_ALLOWED_HOSTS, empty by default) skip the range check:
 * that is what lets tests and `npm run up` deliver to a receiver on loopback.
 */
export async function resolveTarget(
  host: string,
  devAllowedHosts: readonly string[],
): Promise<ResolvedTarget> {
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses =
      isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { ok: false, reason: 'UNRESOLVED' };
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: 'UNRESOLVED' };
  const allowed = devAllowedHosts.includes(host);
  if (!allowed && addresses.some((a) => isForbiddenAddress(a.address)))
    return { ok: false, reason: 'FORBIDDEN' };
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
