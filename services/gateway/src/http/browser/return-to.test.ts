import { describe, expect, it } from '@jest/globals';
import { safeReturnTo } from './return-to.js';

describe('safeReturnTo', () => {
  it('keeps same-site paths, defaults to /', () => {
    expect(safeReturnTo(undefined)).toBe('/');
    expect(safeReturnTo('/dashboard?tab=1#x')).toBe('/dashboard?tab=1#x');
  });

  it.each([
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'evil',
    '/a\nb',
    'javascript:alert(1)',
    '/\t/evil.example',
  ])('refuses %j', (value) => {
    expect(safeReturnTo(value)).toBeUndefined();
  });
});
