import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { REDACTED_PATHS } from './logger.js';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('log redaction', () => {
  it('never writes passwords, secrets, tokens or authorization headers', () => {
    const out = capture();
    const logger = pino({ redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' } }, out.stream);
    logger.info(
      {
        password: 'p4ss',
        body: { client_secret: 's3cret', refreshToken: 'r3fresh' },
        req: { headers: { authorization: 'Bearer abc' } },
      },
      'login',
    );
    const text = JSON.stringify(out.lines());
    for (const secret of ['p4ss', 's3cret', 'r3fresh', 'Bearer abc']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});
