import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { hashToken, newToken } from './tokens';

export type UserTokenPurpose = 'activation' | 'password_reset';

/** Default of ACTIVATION_TTL_HOURS; callers may pass `config.activationTtlHours`. */
export const DEFAULT_ACTIVATION_TTL_HOURS = 72;

/**
 * Creates a one-time link token for a user and returns it (only its SHA-256 is stored). Earlier
 * unused tokens of the same purpose stop working: only the newest link is valid.
 */
export async function createUserToken(
  tx: Queryable,
  userId: number,
  purpose: UserTokenPurpose,
  ttlHours = DEFAULT_ACTIVATION_TTL_HOURS,
): Promise<string> {
  const token = newToken();
  await tx.query(sql`DELETE FROM user_tokens WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`);
  await tx.query(sql`
    INSERT INTO user_tokens (token_hash, user_id, purpose, expires_at)
    VALUES (${hashToken(token)}, ${userId}, ${purpose}, now() + make_interval(hours => ${ttlHours}))`);
  return token;
}

/** Absolute activation (or password-reset) link for a token: `<publicBase>/api/activate/<token>/`. */
export function activationLink(publicBase: string, token: string): string {
  return `${publicBase.replace(/\/+$/, '')}/api/activate/${encodeURIComponent(token)}/`;
}

export interface UserTokenRow {
  user_id: number;
  purpose: UserTokenPurpose;
  username: string;
  company_id: number;
}

/**
 * The account a token opens, when the token is known, unused, unexpired and its account active.
 * `lock` takes a row lock so that two requests cannot both use it.
 */
export async function findUsableUserToken(db: Queryable, token: string, lock = false): Promise<UserTokenRow | null> {
  if (token.length > 200) return null;
  const { rows } = await db.query<UserTokenRow>(sql`
    SELECT t.user_id, t.purpose, u.username, u.company_id
    FROM user_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ${hashToken(token)} AND t.used_at IS NULL AND t.expires_at > now() AND u.archived_at IS NULL
    ${lock ? sql`FOR UPDATE OF t` : sql``}`);
  return rows[0] ?? null;
}

/** Marks a token used: the link cannot open anything again. */
export async function markUserTokenUsed(db: Queryable, token: string): Promise<void> {
  await db.query(sql`UPDATE user_tokens SET used_at = now() WHERE token_hash = ${hashToken(token)}`);
}
