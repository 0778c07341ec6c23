import { describe, expect, it } from '@jest/globals';
import { GrpcStatus, RemoteCallError } from './index.js';
import { ERROR_DETAILS_KEY, errorMetadata } from './error-mapping.js';

describe('error metadata', () => {
  it('carries details with non-ASCII and control characters, and the caller reads them back unchanged', () => {
    const details = { action: '#«', emoji: '🚀', control: '\u0000\u007f\n', lone: '\ud800' };
    const metadata = errorMetadata('UNKNOWN_ACTION', details);
    const raw = metadata.get(ERROR_DETAILS_KEY)[0] as string;
    expect(raw).toMatch(/^[\x20-\x7e]*$/);
    const remote = new RemoteCallError(
      Object.assign(new Error('m'), {
        code: GrpcStatus.INVALID_ARGUMENT,
        details: 'm',
        metadata,
      }),
    );
    expect(remote.details).toEqual(details);
    expect(remote.reason).toBe('UNKNOWN_ACTION');
  });
});
