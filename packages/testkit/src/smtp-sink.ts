import { SMTPServer } from 'smtp-server';

/** One message the sink received, its text body decoded. */
export interface SinkMessage {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:PORT`, for a mailer. */
  readonly url: string;
  readonly messages: readonly SinkMessage[];
  /** The first message to `to` (after `since` messages), waiting at most `timeoutMs`. */
  waitForMessage(to: string, options?: { timeoutMs?: number; since?: number }): Promise<SinkMessage>;
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Splits a plain single-part message and decodes its body (base64 or quoted-printable or as is). */
export function decodeMessage(raw: string, envelope: { from: string; to: string[] }): SinkMessage {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable')
    text = Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  return { from: envelope.from, to: envelope.to, subject: headers.get('subject') ?? '', text };
}

/**
 * A real SMTP server on loopback that keeps what it receives in memory: the tests' mail sink.
 * No TLS and no authentication (it only ever listens on 127.0.0.1).
 */
export async function startSmtpSink(
  options: { port?: number; onMessage?: (message: SinkMessage) => void } = {},
): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        };
        const message = decodeMessage(Buffer.concat(chunks).toString('utf8'), envelope);
        messages.push(message);
        options.onMessage?.(message);
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMessage(to, options = {}) {
      const wanted = to.toLowerCase();
      const since = options.since ?? 0;
      const find = () => messages.slice(since).find((m) => m.to.includes(wanted));
      const deadline = Date.now() + (options.timeoutMs ?? 5_000);
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${options.timeoutMs ?? 5_000} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
