import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit subject for a caller's address. One IPv6 subscriber usually holds a whole /64
 * (and can rotate through it freely), so IPv6 addresses count per /64; IPv4 per address, and an
 * IPv4-mapped IPv6 address as the IPv4 address it is. Every spelling of an address gives the same
 * key (CVE-2026-45364 was limits bypassed with non-canonical and /64-rotated addresses).
 */
export function clientAddressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (isIPv4(address)) return `ipv4:${address}`;
  // Not an address (an X-Forwarded-For entry is the caller's text when hops are misconfigured):
  // hashed, so no caller text becomes part of a Redis key name.
  if (!isIPv6(address)) return `other:${createHash('sha256').update(ip, 'utf8').digest('base64url')}`;
  const groups = expandIPv6(address);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `ipv4:${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `ipv6:${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The /48 an IPv6 caller's /64 belongs to, or undefined for IPv4 (and IPv4-mapped) callers. A
 * /48 is what one site is usually given: 65,536 /64s, so a per-/64 limit alone lets one site make
 * 65,536 times the guesses. Counted beside the /64 key, never instead of it.
 */
export function clientNetworkKey(ip: string): string | undefined {
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  const groups = expandIPv6(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return undefined;
  return `ipv6:${groups
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(':')}::/48`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

/**
 * Fastify's `trustProxy` for "N proxies in front of us": trust the socket peer and the N-1
 * X-Forwarded-For entries after it, so `request.ip` is the address the outermost proxy saw.
 * A function because Fastify 5 now ignores a bare hop count (it fails closed, and so every
 * request looked as if it came from the proxy). The operator vouches that the N hops exist.
 */
export function trustProxyHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
