import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { endOtherOwnSessions, endOwnSession } from './sessions.repository';

// The sessions module is the one writer of sessions: other modules start, touch and end them
// through these, inside their own transaction (sign-in, impersonation, password changes, archiving).
export {
  createSession,
  endAllSessionsOf,
  endSession,
  endUserSessions,
  markTwoFactorPassed,
  SESSION_ABSOLUTE_SECONDS,
  touchSession,
  type SessionInfo,
} from './sessions.repository';

/** Ending one's own sessions: each change in one transaction with its audit record. */
export class SessionsService {
  constructor(private readonly db: Database) {}

  /** Ends one of the caller's sessions (404 when it is not one of theirs or already over). */
  async endOne(actor: Actor, audit: AuditContext, publicId: string): Promise<number> {
    await this.db.transaction(async (tx) => {
      const ended = await endOwnSession(tx, actor, publicId);
      if (!ended) throw notFound();
      await recordAudit(tx, audit, {
        action: 'end_session',
        objectType: 'session',
        objectId: publicId,
        objectRepr: `${ended.ip ?? 'unknown address'} — ${ended.user_agent.slice(0, 100)}`,
        companyId: actor.companyId,
      });
    });
    return 1;
  }

  /** Ends every session of the caller but this one; audited when any ended. Answers how many. */
  async endOthers(actor: Actor, audit: AuditContext): Promise<number> {
    return this.db.transaction(async (tx) => {
      const ended = await endOtherOwnSessions(tx, actor);
      if (ended > 0) {
        await recordAudit(tx, audit, {
          action: 'end_other_sessions',
          objectType: 'user',
          objectId: actor.userId,
          objectRepr: actor.username,
          companyId: actor.companyId,
          after: { sessions_ended: ended },
        });
      }
      return ended;
    });
  }
}
