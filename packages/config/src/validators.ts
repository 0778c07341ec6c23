import { EnvError, makeValidator } from 'envalid';
import { MongoClient } from 'mongodb';

function urlWithSchemes(input: string, schemes: readonly string[], what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    throw new EnvError(`must be a ${what} URL (${schemes.join(' or ')})`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new EnvError(`must start with ${schemes.map((s) => `${s}://`).join(' or ')}`);
  }
  return input;
}

/**
 * A MongoDB connection string, checked by the driver's own parser (constructing a client parses
 * the string and connects nothing). Never echoed: it may hold a password.
 */
export const mongoUrl = makeValidator<string>((input) => {
  try {
    new MongoClient(input);
  } catch (error) {
    throw new EnvError(
      `is not a valid MongoDB connection string (${(error as Error).message.replace(input, '<value>')})`,
    );
  }
  return input;
});

/** One or more NATS server URLs, comma separated. */
export const natsUrl = makeValidator<string>((input) => {
  for (const part of input.split(',')) urlWithSchemes(part.trim(), ['nats', 'tls', 'ws', 'wss'], 'NATS');
  return input;
});

/** A Redis URL. */
export const redisUrl = makeValidator<string>((input) => urlWithSchemes(input, ['redis', 'rediss'], 'Redis'));

/** An http(s) URL. */
export const httpUrl = makeValidator<string>((input) => urlWithSchemes(input, ['http', 'https'], 'HTTP'));

/** A positive whole number of milliseconds. */
export const durationMs = makeValidator<number>((input) => {
  const value = Number(input);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new EnvError('must be a positive whole number of milliseconds');
  return value;
});

/** A TCP port; 0 lets the kernel pick one (tests). */
export const listenPort = makeValidator<number>((input) => {
  const value = Number(input);
  if (!Number.isInteger(value) || value < 0 || value > 65_535)
    throw new EnvError('must be a port number from 0 to 65535');
  return value;
});

/** A comma-separated list of non-empty strings. */
export const csv = makeValidator<readonly string[]>((input) =>
  Object.freeze(
    input
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  ),
);

/** A secret of at least `minLength` characters; its value is never put in a message. */
export function secret(minLength: number) {
  return makeValidator<string>((input) => {
    if (input.length < minLength) throw new EnvError(`must be at least ${minLength} characters long`);
    return input;
  });
}

/** A name safe for a database, key prefix or stream: letters, digits, `_` and `-`. */
export const identifier = makeValidator<string>((input) => {
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(input)) throw new EnvError('must be 1-63 letters, digits, "_" or "-"');
  return input;
});
