import type { Queryable } from '../../db/database';
import { activationLink, createUserToken } from '../auth/user-tokens';
import { enqueueMail } from '../mail/mail.queue';
import { fullName } from './users.repository';

/**
 * Starts the activation of a user created without a password: a one-time link, mailed to the
 * user when it has an address (after commit, by the job queue). Returns the link so the
 * administrator can hand it over when there is no mail.
 */
export async function startActivation(
  tx: Queryable,
  user: { id: number; username: string; email: string | null; first_name: string; last_name: string },
  base: string,
  ttlHours: number,
): Promise<string> {
  const token = await createUserToken(tx, user.id, 'activation', ttlHours);
  const link = activationLink(base, token);
  if (user.email) {
    await enqueueMail(tx, {
      to: user.email,
      subject: 'Your Vigil account',
      text: [
        `Hello ${fullName(user)},`,
        '',
        `An account "${user.username}" has been created for you in Vigil Managed XDR.`,
        'Open this link to choose your password and sign in:',
        link,
        '',
        'The link can be used once and expires in a few days.',
      ].join('\n'),
    });
  }
  return link;
}
