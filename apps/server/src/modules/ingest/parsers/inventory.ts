import type { SoftwareSource } from '@vigil/contract';
import { FieldError, describe, expandDottedKeys, isObject, readString, readTimestamp, type JsonObject } from './values';

/*
 * Software inventory lines on the endpoint stream, beside events:
 *
 * ECS package documents (Auditbeat's system/package dataset and the like): `package.name` with
 *   package.version, package.type, package.installed, package.vendor | package.publisher,
 *   host.name | host.hostname, @timestamp; event.action `package_removed` (or event.type
 *   `deletion`) says the package went.
 *
 * osquery result log lines of the `programs`, `deb_packages`, `rpm_packages` and `apps` tables
 *   (the query named so, `pack_<pack>_<query>` too, or told apart by its columns):
 *   {"name": …, "hostIdentifier": …, "unixTime": …, "action": "added" | "removed", "columns": {…}},
 *   a snapshot {"action": "snapshot", "snapshot": [{…}, …]} or a batch
 *   {"diffResults": {"added": […], "removed": […]}}.
 *
 * A line is an inventory line or an event, never both; an inventory line that names no host or
 * no package is refused with the reason.
 */

/** One package on one host, as an inventory reported it. */
export interface SoftwareInventoryItem {
  host_name: string;
  vendor: string;
  name: string;
  /** Empty when the inventory gives none. */
  version: string;
  source: SoftwareSource;
  /** When the inventory saw it (null: when the batch arrived). */
  seen_at: string | null;
  /** When the package was installed, if the inventory says. */
  installed_at: string | null;
  /** The inventory says the package is gone. */
  removed: boolean;
}

type OsqueryTable = 'programs' | 'deb_packages' | 'rpm_packages' | 'apps';
const TABLES: readonly OsqueryTable[] = ['programs', 'deb_packages', 'rpm_packages', 'apps'];
const LIMITS = { host: 255, vendor: 300, name: 300, version: 200 };

function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function bounded(value: string | null, max: number, field: string): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed.length > max) throw new FieldError(`${field} is longer than ${max} characters`);
  return trimmed === '' ? null : trimmed;
}

/** Whether a record is an osquery result line (it names its query and carries rows). */
function isOsquery(record: JsonObject): boolean {
  return (
    typeof own(record, 'name') === 'string' &&
    (own(record, 'hostIdentifier') !== undefined || own(record, 'calendarTime') !== undefined) &&
    (own(record, 'columns') !== undefined ||
      own(record, 'snapshot') !== undefined ||
      own(record, 'diffResults') !== undefined)
  );
}

/** Whether a record is an ECS package document rather than an event. */
function isEcsPackage(record: JsonObject): boolean {
  const pkg = own(record, 'package');
  if (pkg === undefined && own(record, 'package.name') === undefined) return false;
  if (pkg !== undefined && !isObject(pkg)) return false;
  // An event that merely mentions a package (a process event of an installer) stays an event.
  return own(record, 'process') === undefined && own(record, 'process.name') === undefined;
}

/** Whether a line is a software inventory line (the endpoint parser reads it as such, not as an event). */
export function isInventoryRecord(record: JsonObject): boolean {
  return isOsquery(record) || isEcsPackage(record);
}

/** The packages of an inventory line; throws FieldError naming what is missing or malformed. */
export function readInventory(record: JsonObject): SoftwareInventoryItem[] {
  return isOsquery(record) ? readOsquery(record) : [readEcsPackage(expandDottedKeys(record))];
}

function readEcsPackage(r: JsonObject): SoftwareInventoryItem {
  const pkg = own(r, 'package');
  if (!isObject(pkg)) throw new FieldError(`package must be an object, found ${describe(pkg)}`);
  const host = own(r, 'host');
  if (host !== undefined && host !== null && !isObject(host))
    throw new FieldError(`host must be an object, found ${describe(host)}`);
  const hostName = bounded(
    isObject(host)
      ? (readString(own(host, 'name'), 'host.name') ?? readString(own(host, 'hostname'), 'host.hostname'))
      : null,
    LIMITS.host,
    'host.name',
  );
  if (hostName === null) throw new FieldError('a package document names no host (host.name)');
  const name = bounded(readString(own(pkg, 'name'), 'package.name'), LIMITS.name, 'package.name');
  if (name === null) throw new FieldError('a package document names no package (package.name)');
  const event = own(r, 'event');
  const action = isObject(event) ? readString(own(event, 'action'), 'event.action') : null;
  const types = isObject(event) ? own(event, 'type') : undefined;
  const deletion = Array.isArray(types) ? types.includes('deletion') : types === 'deletion';
  return {
    host_name: hostName,
    vendor:
      bounded(
        readString(own(pkg, 'vendor'), 'package.vendor') ?? readString(own(pkg, 'publisher'), 'package.publisher'),
        LIMITS.vendor,
        'package.vendor',
      ) ?? '',
    name,
    version: bounded(readString(own(pkg, 'version'), 'package.version'), LIMITS.version, 'package.version') ?? '',
    source: 'ecs',
    seen_at: readTimestamp(own(r, '@timestamp') ?? own(r, 'timestamp'), '@timestamp'),
    installed_at: readTimestamp(own(pkg, 'installed'), 'package.installed'),
    removed: deletion || action === 'package_removed',
  };
}

/** The table of an osquery query: by its name (`programs`, `pack_inventory_programs`), else by its columns. */
function tableOf(query: string, columns: JsonObject | undefined): OsqueryTable | null {
  const lower = query.toLowerCase();
  for (const table of TABLES) {
    if (lower === table || lower.endsWith(`_${table}`) || lower.endsWith(`/${table}`) || lower.endsWith(`:${table}`)) {
      return table;
    }
  }
  if (!columns) return null;
  const has = (key: string) => Object.hasOwn(columns, key);
  if (has('bundle_identifier')) return 'apps';
  if (has('maintainer') && has('arch')) return 'deb_packages';
  if (has('release') && has('arch')) return 'rpm_packages';
  if (has('publisher') && (has('install_date') || has('identifying_number'))) return 'programs';
  return null;
}

function osqueryTime(record: JsonObject): string | null {
  const unix = own(record, 'unixTime');
  if (unix === undefined || unix === null || unix === '') return null;
  const seconds = typeof unix === 'string' && /^\d{1,12}$/.test(unix) ? Number(unix) : unix;
  if (typeof seconds !== 'number')
    throw new FieldError(`unixTime must be a number of seconds, found ${describe(unix)}`);
  return readTimestamp(seconds * 1000, 'unixTime');
}

/** `Ubuntu Developers <ubuntu-devel@…>` → `Ubuntu Developers`. */
function maintainerName(text: string | null): string | null {
  if (text === null) return null;
  const cut = text.indexOf('<');
  return (cut >= 0 ? text.slice(0, cut) : text).trim() || null;
}

function readOsquery(record: JsonObject): SoftwareInventoryItem[] {
  const query = readString(own(record, 'name'), 'name') ?? '';
  const host = bounded(
    readString(own(record, 'hostIdentifier'), 'hostIdentifier') ??
      (isObject(own(record, 'decorations'))
        ? readString(own(own(record, 'decorations') as JsonObject, 'hostname'), 'decorations.hostname')
        : null),
    LIMITS.host,
    'hostIdentifier',
  );
  if (host === null) throw new FieldError('an osquery result names no host (hostIdentifier)');
  const seenAt = osqueryTime(record);
  const action = readString(own(record, 'action'), 'action');
  const rows: { columns: unknown; removed: boolean; path: string }[] = [];
  const columns = own(record, 'columns');
  const snapshot = own(record, 'snapshot');
  const diff = own(record, 'diffResults');
  if (columns !== undefined) rows.push({ columns, removed: action === 'removed', path: 'columns' });
  else if (snapshot !== undefined) {
    if (!Array.isArray(snapshot)) throw new FieldError(`snapshot must be a list, found ${describe(snapshot)}`);
    snapshot.forEach((columns, i) => rows.push({ columns, removed: false, path: `snapshot[${i}]` }));
  } else if (isObject(diff)) {
    for (const side of ['added', 'removed'] as const) {
      const list = own(diff, side);
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) throw new FieldError(`diffResults.${side} must be a list, found ${describe(list)}`);
      list.forEach((columns, i) =>
        rows.push({ columns, removed: side === 'removed', path: `diffResults.${side}[${i}]` }),
      );
    }
  } else throw new FieldError(`diffResults must be an object, found ${describe(diff)}`);
  const first = rows.find((r) => isObject(r.columns))?.columns as JsonObject | undefined;
  const table = tableOf(query, first);
  if (table === null) {
    throw new FieldError(
      `the osquery result of ${JSON.stringify(query.slice(0, 80))} is not a software inventory: send the programs, deb_packages, rpm_packages or apps table`,
    );
  }
  if (rows.length === 0)
    throw new FieldError(`the osquery result of ${JSON.stringify(query.slice(0, 80))} holds no rows`);
  return rows.map(({ columns: c, removed, path }) => {
    if (!isObject(c)) throw new FieldError(`${path} must be an object of columns, found ${describe(c)}`);
    const text = (key: string, max: number) =>
      bounded(readString(own(c, key), `${path}.${key}`), max, `${path}.${key}`);
    const name = text('name', LIMITS.name);
    if (name === null) throw new FieldError(`${path}.name is missing: a package needs a name`);
    let version: string | null;
    let vendor: string | null;
    if (table === 'programs') {
      version = text('version', LIMITS.version);
      vendor = text('publisher', LIMITS.vendor);
    } else if (table === 'deb_packages') {
      version = text('version', LIMITS.version);
      vendor = maintainerName(text('maintainer', LIMITS.vendor));
    } else if (table === 'rpm_packages') {
      const release = text('release', LIMITS.version);
      version = text('version', LIMITS.version);
      if (version !== null && release !== null) version = `${version}-${release}`.slice(0, LIMITS.version);
      vendor = text('vendor', LIMITS.vendor);
    } else {
      version = text('bundle_short_version', LIMITS.version) ?? text('bundle_version', LIMITS.version);
      vendor = null;
    }
    return {
      host_name: host,
      vendor: vendor ?? '',
      name,
      version: version ?? '',
      source: `osquery_${table}`,
      seen_at: seenAt,
      installed_at: null,
      removed,
    };
  });
}
