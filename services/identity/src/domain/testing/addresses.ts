/** Fixtures for the domain's own tests (not used by production code). */

/** Text that is no e-mail address: empty, no `@`, no local part, no dot in the domain, spaces. */
export const MALFORMED_ADDRESSES: readonly string[] = [
  '',
  'ada',
  'ada@',
  '@example.com',
  'ada@example',
  'a da@example.com',
  'ada@exa mple.com',
];
