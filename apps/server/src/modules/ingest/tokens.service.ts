import type { IngestTokenCreate } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { createIngestToken, findIngestToken, revokeIngestToken, type IngestTokenRow } from './tokens.repository';

/** Ingest keys: each change in one transaction with its audit record. */
export class IngestTokensService {
  constructor(private readonly db: Database) {}

  async get(actor: Actor, id: number): Promise<IngestTokenRow> {
    const token = await findIngestToken(this.db, actor.scope, id);
    if (!token) throw notFound();
    return token;
  }

  /** A new key for the caller's company (or another in scope); the key itself is shown only now. */
  async create(
    actor: Actor,
    audit: AuditContext,
    input: IngestTokenCreate,
  ): Promise<{ row: IngestTokenRow; key: string }> {
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', `No company with id ${companyId}.`);
    return this.db.transaction(async (tx) => {
      const made = await createIngestToken(tx, { companyId, name: input.name, createdBy: actor.userId });
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'ingest_token',
        objectId: made.row.id,
        objectRepr: made.row.name,
        companyId,
        after: { name: made.row.name, key_prefix: made.row.key_prefix, company_id: companyId },
      });
      return made;
    });
  }

  async revoke(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const token = await findIngestToken(tx, actor.scope, id);
      if (!token) throw notFound();
      await revokeIngestToken(tx, id);
      await recordAudit(tx, audit, {
        action: 'delete',
        objectType: 'ingest_token',
        objectId: id,
        objectRepr: token.name,
        companyId: Number(token.company_id),
        before: { revoked_at: token.revoked_at },
        after: { revoked_at: new Date() },
      });
    });
  }
}
