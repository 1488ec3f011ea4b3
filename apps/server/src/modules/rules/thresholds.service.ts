import type { z } from 'zod';
import type { suricataThresholdCreateSchema, suricataThresholdUpdateSchema } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { parseThresholdLine } from './suricata/threshold-config';
import { formatThresholdEntry } from './suricata/writer';
import {
  deleteThreshold,
  findThreshold,
  insertThreshold,
  updateThreshold,
  type ThresholdRow,
} from './thresholds.repository';

/** A threshold.config entry in the audit log: its text and comment. */
const audited: AuditedKind<ThresholdRow> = {
  objectType: 'suricata_threshold',
  repr: (t) => t.entry,
  snapshot: (t) => ({ entry: t.entry, comment: t.comment }),
};

/** An entry checked as Suricata reads threshold.config, written back in its plain form. */
function checkedEntry(text: string): string {
  if (/[\r\n]/.test(text)) throw ValidationError.field('entry', 'Give one entry, on one line.');
  const parsed = parseThresholdLine(text);
  if (!parsed.ok) throw ValidationError.field('entry', `This is not a threshold.config entry: ${parsed.reason}.`);
  return formatThresholdEntry(parsed.value);
}

/** Each company's Suricata threshold.config entries: each change with its audit record. */
export class ThresholdsService {
  constructor(private readonly db: Database) {}

  async create(
    actor: Actor,
    audit: AuditContext,
    input: z.output<typeof suricataThresholdCreateSchema>,
  ): Promise<ThresholdRow> {
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', 'No such company.');
    const entry = checkedEntry(input.entry);
    return this.db.transaction(async (tx) => {
      const row = await insertThreshold(tx, companyId, entry, input.comment ?? '', actor.userId);
      await recordChange(tx, audit, audited, { after: row });
      return row;
    });
  }

  async update(
    actor: Actor,
    audit: AuditContext,
    id: number,
    patch: z.output<typeof suricataThresholdUpdateSchema>,
  ): Promise<ThresholdRow> {
    const entry = patch.entry === undefined ? undefined : checkedEntry(patch.entry);
    return this.db.transaction(async (tx) => {
      const before = await findThreshold(tx, actor.scope, id, true);
      if (!before) throw notFound();
      const after = await updateThreshold(tx, before, entry ?? before.entry, patch.comment ?? before.comment);
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await findThreshold(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await deleteThreshold(tx, before);
      await recordChange(tx, audit, audited, { before });
    });
  }
}
