import { createConnection } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { decodeMessage, startSmtpSink } from './smtp-sink.js';

/** A minimal SMTP client: one command per server reply, every wait bounded by the socket timeout. */
async function sendRaw(url: string, lines: string[]): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = createConnection({ host: hostname, port: Number(port) });
  socket.setTimeout(5_000, () => socket.destroy(new Error('SMTP timeout')));
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let end: number;
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (/^\d{3} /.test(line)) waiters.shift()?.(line);
    }
  });
  const reply = () =>
    new Promise<string>((resolve, reject) => {
      waiters.push(resolve);
      socket.once('error', reject);
    });
  expect(await reply()).toMatch(/^220 /);
  for (const line of lines) {
    socket.write(`${line}\r\n`);
    expect(await reply()).toMatch(/^[23]\d\d /);
  }
  socket.end();
}

describe('startSmtpSink', () => {
  it('receives a message over real SMTP on loopback and decodes its base64 body', async () => {
    const sink = await startSmtpSink();
    try {
      expect(sink.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
      const body = Buffer.from('Sign in: https://app.example/auth#token=ml_abc=\n').toString('base64');
      await sendRaw(sink.url, [
        'HELO test',
        'MAIL FROM:<from@example.com>',
        'RCPT TO:<To@Example.com>',
        'DATA',
        ['Subject: Hello', 'Content-Transfer-Encoding: base64', '', body, '.'].join('\r\n'),
        'QUIT',
      ]);
      const message = await sink.waitForMessage('to@example.com', { timeoutMs: 2_000 });
      expect(message).toEqual({
        from: 'from@example.com',
        to: ['to@example.com'],
        subject: 'Hello',
        text: 'Sign in: https://app.example/auth#token=ml_abc=\n',
      });
      await expect(sink.waitForMessage('nobody@example.com', { timeoutMs: 50 })).rejects.toThrow(/no mail/);
    } finally {
      await sink.stop();
    }
  });
});

describe('decodeMessage', () => {
  it('undoes quoted-printable soft breaks and escapes', () => {
    const raw = 'Subject: QP\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n#token=3Dabc=\r\ndef\r\n';
    expect(decodeMessage(raw, { from: 'a@b.c', to: ['d@e.f'] }).text).toBe('#token=abcdef\r\n');
  });
});
