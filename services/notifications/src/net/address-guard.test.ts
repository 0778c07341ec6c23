import { describe, expect, it } from '@jest/globals';
import { isForbiddenAddress } from './address-guard.js';

describe('the address guard', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'fd00:ec2::254',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['203.0.113.10', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])('lets %s through', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});
