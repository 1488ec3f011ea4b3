import { hash, verify } from '@node-rs/argon2';

/** argon2id is algorithm 2 in @node-rs/argon2 (its enum is a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** argon2id hash of a password (OWASP's recommended parameters). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** A hash of a password nobody knows, verified when the account does not exist so timing tells nothing. */
let decoy: Promise<string> | null = null;

/** Whether `password` matches `stored`; a missing hash still costs one verification. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
