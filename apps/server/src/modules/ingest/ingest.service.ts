// The ingest module is the one writer of what arrives: events, mail, batch records and the file
// warehouse. The pipeline's store step writes through these inside the batch's transaction, and
// retention (events/retention.ts) deletes through them.
export type { BatchInput, BatchKind, Rejection } from './batch';
export { findBatch, insertBatch, type BatchRecord } from './batches.repository';
export {
  deleteOlderBatches,
  deleteOlderEvents,
  deleteOlderHashes,
  deleteUnnamedFiles,
  deleteUnnamedOriginals,
  dropPartition,
} from './prune.repository';
export { flushSightings, recordSightings, type Sighting } from './sightings';
export {
  ensurePartitions,
  eventTables,
  forgetPartitions,
  storeEndpointEvents,
  storeMail,
  storeNetworkEvents,
  type EventTable,
} from './storage';
