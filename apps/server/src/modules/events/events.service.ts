import type {
  EventDetail,
  FileDetail,
  MailAttachmentItem,
  MailDetail,
  ProcessTree,
  ProcessTreeRequest,
  WarehouseFile,
  WarehouseHash,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound } from '../../http/errors';
import type { TenantScope } from '../../http/tenancy';
import {
  findFileContent,
  findMailAttachment,
  findMailMessage,
  findMailOriginal,
  findStoredEvent,
  findWarehouseRow,
  mailAttachmentsOf,
  toMailAttachment,
  toStoredEvent,
  toWarehouseFile,
  toWarehouseHash,
} from './events.repository';
import type { IndicatorIndexSource } from '../indicators/indicator-index';
import { unpackOriginal } from '../ingest/mail-original';
import { holdsPrivilegedFlag } from '../users/users.repository';
import { fileDetail, mailDetail, processTree } from './investigation.repository';

const found = <T>(value: T | null): T => {
  if (value === null) throw notFound();
  return value;
};

/**
 * Reading stored events and the warehouse, in the caller's scope (another company's record is
 * not found). Warehouse reads first fold the hash sightings queued by acknowledged batches.
 */
export class EventsService {
  constructor(
    private readonly db: Queryable,
    /** Brings warehouse/hashes up to date with the queued sightings. */
    readonly foldSightings: () => Promise<unknown>,
    /** The policy indicators whose verdicts mail and files carry. */
    private readonly indexes: IndicatorIndexSource,
  ) {}

  async networkEvent(scope: TenantScope, id: number, ts: string | undefined): Promise<EventDetail> {
    return toStoredEvent(found(await findStoredEvent(this.db, 'network_events', scope, id, ts))) as EventDetail;
  }

  async endpointEvent(scope: TenantScope, id: number, ts: string | undefined): Promise<EventDetail> {
    return toStoredEvent(found(await findStoredEvent(this.db, 'endpoint_events', scope, id, ts))) as EventDetail;
  }

  async mail(scope: TenantScope, id: number, ts: string | undefined): Promise<MailDetail> {
    const message = found(await findMailMessage(this.db, scope, id, ts));
    return mailDetail(message, await mailAttachmentsOf(this.db, message), this.indexes.current());
  }

  /**
   * The original of a mail message, byte for byte. Its bodies and attachments are mail content: the
   * caller needs the `mail_content` privilege (403), and the message must be in its scope (404).
   */
  async mailOriginal(actor: Actor, id: number, ts: string | undefined): Promise<Buffer> {
    if (!(await holdsPrivilegedFlag(this.db, actor.userId, 'mail_content'))) {
      throw forbidden('Reading the original message needs the "Mail content" privilege. Ask an administrator for it.');
    }
    const original = found(await findMailOriginal(this.db, actor.scope, id, ts));
    return unpackOriginal(original.content);
  }

  async attachment(scope: TenantScope, id: number): Promise<MailAttachmentItem> {
    return toMailAttachment(found(await findMailAttachment(this.db, scope, id)));
  }

  async hash(scope: TenantScope, id: number): Promise<WarehouseHash> {
    await this.foldSightings();
    return toWarehouseHash(found(await findWarehouseRow(this.db, scope, id, false)), this.indexes.current());
  }

  /** A stored file by its row id, or everything the caller's companies know of a SHA-256. */
  async file(scope: TenantScope, id: number | string): Promise<WarehouseFile | FileDetail> {
    await this.foldSightings();
    if (typeof id === 'string')
      return found(await fileDetail(this.db, id.toLowerCase(), scope, this.indexes.current()));
    return toWarehouseFile(found(await findWarehouseRow(this.db, scope, id, true)));
  }

  /** The bytes of a file one of the caller's companies has seen. */
  async fileContent(scope: TenantScope, sha256: string): Promise<{ sha256: string; content: Buffer }> {
    await this.foldSightings();
    const hash = sha256.toLowerCase();
    const row = found(await findFileContent(this.db, scope, hash));
    return { sha256: hash, content: Buffer.from(row.content) };
  }

  processTree(scope: TenantScope, input: ProcessTreeRequest): Promise<ProcessTree> {
    return processTree(this.db, input, scope);
  }
}
