import { notificationErrors } from './errors.js';

const POSITION = /^[0-9a-f]{24}$/;

/**
 * The feed's cursor: the position of the last entry read, opaque to callers (base64url of a
 * versioned string) so that its shape can change without breaking them.
 */
export function encodeCursor(position: string): string {
  return Buffer.from(`c1:${position}`, 'utf8').toString('base64url');
}

/** The position a cursor names; anything this service did not issue is CURSOR_INVALID. */
export function decodeCursor(cursor: string): string {
  if (cursor.length > 64 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = text.startsWith('c1:') ? text.slice(3) : '';
  if (!POSITION.test(position)) throw invalidCursor();
  return position;
}

function invalidCursor() {
  return notificationErrors.create('CURSOR_INVALID');
}
