import { describe, expect, it } from '@jest/globals';
import { clientAddressKey, clientNetworkKey, trustProxyHops } from './client-address.js';

describe('clientAddressKey', () => {
  it('counts IPv4 per address, and an IPv4-mapped IPv6 address as that IPv4 address', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('ipv4:203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('ipv4:203.0.113.7');
    expect(clientAddressKey('::ffff:cb00:7107')).toBe('ipv4:203.0.113.7');
  });

  it('groups IPv6 by /64 whatever the spelling', () => {
    const key = 'ipv6:2001:db8:1:2::/64';
    for (const spelling of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:0:0:0:9',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::192.0.2.1',
    ]) {
      expect(clientAddressKey(spelling)).toBe(key);
    }
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientAddressKey('::1')).toBe('ipv6:0:0:0:0::/64');
    expect(clientAddressKey('fe80::1')).toBe('ipv6:fe80:0:0:0::/64');
  });

  it('keeps anything else apart, bounded, and never as the caller wrote it', () => {
    expect(clientAddressKey('unix-socket')).toMatch(/^other:[A-Za-z0-9_-]{43}$/);
    expect(clientAddressKey('unix-socket')).not.toBe(clientAddressKey('unix-socket2'));
    expect(clientAddressKey('x'.repeat(500)).length).toBeLessThan(80);
    for (const hostile of ['{tap}:x', 'a b', 'ü', '*', 'x'.repeat(70)])
      expect(clientAddressKey(hostile)).toMatch(/^other:[A-Za-z0-9_-]{43}$/);
  });
});

describe('clientNetworkKey', () => {
  it('groups IPv6 by /48 whatever the spelling, so every /64 of one site shares it', () => {
    const key = 'ipv6:2001:db8:1::/48';
    for (const spelling of ['2001:db8:1:2::1', '2001:0DB8:0001:ffff::9', '2001:db8:1::1%eth0'])
      expect(clientNetworkKey(spelling)).toBe(key);
    expect(clientNetworkKey('2001:db8:2::1')).not.toBe(key);
  });

  it('has no network key for IPv4, IPv4-mapped or unparseable callers', () => {
    expect(clientNetworkKey('203.0.113.7')).toBeUndefined();
    expect(clientNetworkKey('::ffff:203.0.113.7')).toBeUndefined();
    expect(clientNetworkKey('unix-socket')).toBeUndefined();
  });
});

describe('trustProxyHops', () => {
  it('trusts exactly the first N hops (the socket peer is hop 0)', () => {
    const trust = trustProxyHops(2);
    expect([0, 1, 2].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false]);
  });
});
