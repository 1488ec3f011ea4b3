/** Default of PASSWORD_MIN_LENGTH; callers pass `config.passwordMinLength`. */
export const DEFAULT_PASSWORD_MIN_LENGTH = 10;
/** Longest password accepted anywhere (bounds the hashing work one request can ask for). */
export const PASSWORD_MAX_LENGTH = 200;

export interface PasswordPolicyContext {
  /** The account's username: a password may not contain it. */
  username: string;
  /** The password being replaced, when known: the new one must differ. */
  oldPassword?: string | null | undefined;
  /** Shortest acceptable length; `config.passwordMinLength` (default 10). */
  minLength?: number;
}

/**
 * Problems with a new password under the policy, written for the person choosing it; an empty
 * list means it is acceptable. Used for self-service changes, activation, administrators and the CLI.
 */
export function validatePasswordPolicy(password: string, context: PasswordPolicyContext): string[] {
  const minLength = context.minLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  const problems: string[] = [];
  if (password.length < minLength) problems.push(`The password must be at least ${minLength} characters long.`);
  if (password.length > PASSWORD_MAX_LENGTH)
    problems.push(`The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`);
  if (/^\d+$/.test(password)) problems.push('The password cannot be made of digits only.');
  if (password.trim() === '' && password.length > 0) problems.push('The password cannot be only spaces.');
  const username = context.username.trim().toLowerCase();
  if (username.length >= 3 && password.toLowerCase().includes(username)) {
    problems.push('The password cannot contain the username.');
  }
  if (context.oldPassword !== undefined && context.oldPassword !== null && password === context.oldPassword) {
    problems.push('The new password must differ from the current one.');
  }
  return problems;
}
