// The audit module is the one writer of the system log: other modules write their records through
// these, inside the transaction that makes the change.
export {
  auditContextOf,
  auditRecordsFrom,
  recordAudit,
  recordSystemAudits,
  SYSTEM_USERNAME,
  type AuditContext,
  type AuditEntry,
  type AuditRowsSql,
  type SystemAuditEntry,
} from './audit.repository';
