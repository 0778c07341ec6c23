import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { redactUrl, requestLogSerializer } from './redact-url.js';

describe('redactUrl', () => {
  it('keeps the path and hides the query and fragment', () => {
    expect(redactUrl('/api/v1/auth/v2/sso/x/callback?code=c0de&state=s7')).toBe(
      '/api/v1/auth/v2/sso/x/callback?[redacted]',
    );
    expect(redactUrl('/a#token=t')).toBe('/a?[redacted]');
    expect(redactUrl('/healthz')).toBe('/healthz');
  });

  it('is the req serializer of createLogger', () => {
    let written = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ service: 'test', destination });
    logger.info({ req: { method: 'GET', url: '/x?token=secret-value', ip: '127.0.0.1' } }, 'incoming');
    expect(written).toContain('/x?[redacted]');
    expect(written).not.toContain('secret-value');
    expect(requestLogSerializer({ url: '/y?code=1' })['url']).toBe('/y?[redacted]');
  });
});
