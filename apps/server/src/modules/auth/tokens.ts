import { createHash, randomBytes } from 'node:crypto';

/** A random secret for a cookie, a link or an API key (256 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a secret: its SHA-256, so a leaked table opens nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
