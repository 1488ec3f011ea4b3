/*
 * Ingest parsers: pure functions from what a sensor sends to normalised events, record by record.
 * No database, no I/O; every function here answers for any input without throwing.
 */
export { DEFAULT_MAX_LINE_BYTES, type LineParseOptions, type LineResult } from './lines';
export { parseEveLines, parseEveLine, eveSeverity } from './eve';
export { parseEndpointLines, parseEndpointLine } from './endpoint';
export { parseEndpointRecords, type EndpointRecord } from './endpoint-records';
export { type SoftwareInventoryItem } from './inventory';
export {
  parseMail,
  DEFAULT_MAX_MAIL_BYTES,
  DEFAULT_MAX_ATTACHMENTS,
  type MailParseOptions,
  type MailParseResult,
  type ParsedMailMessage,
  type ParsedAttachment,
} from './mail';
export { detectFileType } from './file-type';
export { extractUrls, normaliseUrl } from './urls';
export { normaliseIp, normaliseTimestamp } from './values';
