import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound } from '../../http/errors';
import type { SoftwareInventoryStage } from '../pipeline/pipeline';
import { foldSoftware, softwareOfProcesses } from './software-items';
import { findProduct, findVersion, recordSoftware, type ProductRow, type VersionRow } from './software.repository';

/**
 * The pipeline's inventory stage: an endpoint batch's inventory lines and the products of the
 * process images its events started, folded and written in the batch's transaction. The software
 * module is the one writer of software_products, software_versions and software_installs.
 */
export const recordSoftwareOfBatch: SoftwareInventoryStage = async (tx: Queryable, companyId, batch) => {
  const processes = softwareOfProcesses(batch.stored);
  if (batch.items.length === 0 && processes.length === 0) return;
  await recordSoftware(tx, companyId, foldSoftware([...batch.items, ...processes], batch.receivedAt));
};

/** Reads of the software catalogue in the caller's scope. */
export class SoftwareService {
  constructor(private readonly db: Database) {}

  async product(actor: Actor, id: number): Promise<ProductRow> {
    const row = await findProduct(this.db, actor.scope, id);
    if (!row) throw notFound();
    return row;
  }

  async version(actor: Actor, id: number): Promise<VersionRow> {
    const row = await findVersion(this.db, actor.scope, id);
    if (!row) throw notFound();
    return row;
  }
}
