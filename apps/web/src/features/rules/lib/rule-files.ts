/**
 * Reading the files an import is given: rule files as they are, and .zip, .tar, .tar.gz (.tgz) archives unpacked
 * in the browser. The limits of one import are kept while unpacking, so an archive that inflates beyond them (a
 * zip bomb) is stopped before it fills memory, and nothing is sent.
 */

/** Files an import takes (the engines' own extensions and plain text). */
export const RULE_FILE_NAME = /\.(rules|ya?ml|yara?|txt)$/i;
/** What the file picker offers: rule files and the archives read here. */
export const RULE_FILE_ACCEPT = '.rules,.yml,.yaml,.yar,.yara,.txt,.zip,.tar,.gz,.tgz';

export interface RuleFileText {
  name: string;
  content: string;
}

export interface RuleFileLimits {
  /** Largest rule file (bytes). */
  file: number;
  /** Largest sum of the rule files, and of everything an archive unpacks to (bytes). */
  total: number;
}

/** Why nothing is sent. */
export type RuleFilesProblem =
  | { kind: 'fileTooLarge'; name: string; bytes: number }
  | { kind: 'importTooLarge'; bytes: number }
  | { kind: 'archiveTooLarge'; name: string }
  | { kind: 'unreadable'; name: string }
  | { kind: 'notText'; name: string }
  | { kind: 'noRuleFiles' };

export interface RuleFilesRead {
  files: RuleFileText[];
  /** Files left out: not rule files (by extension), or an archive's hidden and system files. */
  skipped: number;
  problem: RuleFilesProblem | null;
}

/** One picked or dropped file (a browser `File` is one). */
export interface PickedFile {
  name: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

class Refusal extends Error {
  constructor(readonly problem: RuleFilesProblem) {
    super(problem.kind);
  }
}

/** Reads the picked files into the texts an import sends, or says why it cannot. */
export async function readRuleFiles(picked: readonly PickedFile[], limits: RuleFileLimits): Promise<RuleFilesRead> {
  const files: RuleFileText[] = [];
  let skipped = 0;
  let total = 0;
  const add = (name: string, bytes: Uint8Array) => {
    if (bytes.length > limits.file) throw new Refusal({ kind: 'fileTooLarge', name, bytes: bytes.length });
    total += bytes.length;
    if (total > limits.total) throw new Refusal({ kind: 'importTooLarge', bytes: total });
    files.push({ name, content: decodeText(name, bytes) });
  };
  try {
    for (const file of picked) {
      const archive = archiveKind(file.name);
      if (archive) {
        const entries = await unpack(archive, file, limits);
        for (const entry of entries) {
          if (!RULE_FILE_NAME.test(entry.name) || isHidden(entry.name)) skipped++;
          else add(entry.name, entry.bytes);
        }
      } else if (!RULE_FILE_NAME.test(file.name)) {
        skipped++;
      } else if (file.size > limits.file) {
        throw new Refusal({ kind: 'fileTooLarge', name: file.name, bytes: file.size });
      } else {
        add(file.name, new Uint8Array(await file.arrayBuffer()));
      }
    }
  } catch (error) {
    if (error instanceof Refusal) return { files: [], skipped, problem: error.problem };
    throw error;
  }
  return { files, skipped, problem: files.length === 0 ? { kind: 'noRuleFiles' } : null };
}

type ArchiveKind = 'zip' | 'tar' | 'tar.gz';

function archiveKind(name: string): ArchiveKind | null {
  if (/\.zip$/i.test(name)) return 'zip';
  if (/\.(tar\.gz|tgz)$/i.test(name)) return 'tar.gz';
  if (/\.tar$/i.test(name)) return 'tar';
  return null;
}

/** Dot files and the folders archivers add (`__MACOSX/`, `._name`): never rules. */
function isHidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part === '__MACOSX');
}

/** Text of a rule file: UTF-8 (a byte order mark dropped); anything else is refused as not text. */
function decodeText(name: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Refusal({ kind: 'notText', name });
  }
}

interface Entry {
  name: string;
  bytes: Uint8Array;
}

async function unpack(kind: ArchiveKind, file: PickedFile, limits: RuleFileLimits): Promise<Entry[]> {
  const tooLarge = () => new Refusal({ kind: 'archiveTooLarge', name: file.name });
  const unreadable = () => new Refusal({ kind: 'unreadable', name: file.name });
  const packed = new Uint8Array(await file.arrayBuffer());
  if (kind === 'zip') return readZip(packed, limits.total, tooLarge, unreadable);
  // A tar's headers and padding come on top of its files: the stream may be that much longer.
  const tar = kind === 'tar' ? packed : await inflate(packed, 'gzip', limits.total * 2, tooLarge, unreadable);
  return readTar(tar, limits.total, tooLarge, unreadable);
}

/** Inflates a stream, stopping as soon as it passes `cap` bytes (the declared sizes of an archive are not trusted). */
async function inflate(
  packed: Uint8Array,
  format: 'gzip' | 'deflate-raw',
  cap: number,
  tooLarge: () => Refusal,
  unreadable: () => Refusal,
): Promise<Uint8Array> {
  const reader = new Blob([packed as BlobPart]).stream().pipeThrough(new DecompressionStream(format)).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > cap) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw unreadable();
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const utf8 = new TextDecoder();

/** A tar archive (ustar, GNU long names, pax `path`): its regular files; folders and links left out. */
function readTar(tar: Uint8Array, cap: number, tooLarge: () => Refusal, unreadable: () => Refusal): Entry[] {
  const entries: Entry[] = [];
  let total = 0;
  let at = 0;
  let longName: string | null = null;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (from: number, length: number) => {
      const bytes = header.subarray(from, from + length);
      const end = bytes.indexOf(0);
      return utf8.decode(end < 0 ? bytes : bytes.subarray(0, end));
    };
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw unreadable();
    const type = String.fromCharCode(header[156]!);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const start = at + 512;
    if (start + size > tar.length) throw unreadable();
    const body = tar.subarray(start, start + size);
    at = start + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = utf8.decode(body).replace(/\0+$/, '');
      continue;
    }
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(utf8.decode(body))?.[1] ?? null;
      continue;
    }
    longName = null;
    if (type !== '0' && type !== '\0' && type !== '7') continue;
    total += size;
    if (total > cap) throw tooLarge();
    entries.push({ name: name.replace(/^\.\//, ''), bytes: body });
  }
  return entries;
}

/** A zip archive: its stored and deflated files, read through the central directory. */
async function readZip(
  zip: Uint8Array,
  cap: number,
  tooLarge: () => Refusal,
  unreadable: () => Refusal,
): Promise<Entry[]> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end of central directory record: in the last 64 KiB + 22 bytes.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 65_557); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unreadable();
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: Entry[] = [];
  let total = 0;
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) throw unreadable();
    const method = view.getUint16(at + 10, true);
    const packedSize = view.getUint32(at + 20, true);
    const declaredSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = utf8.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (!RULE_FILE_NAME.test(name) || isHidden(name)) {
      // Left out unread; counted as skipped by the caller.
      entries.push({ name, bytes: new Uint8Array(0) });
      continue;
    }
    if (local + 30 > zip.length || view.getUint32(local, true) !== 0x04034b50) throw unreadable();
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const packed = zip.subarray(dataStart, dataStart + packedSize);
    if (packed.length !== packedSize) throw unreadable();
    // What the directory declares is checked first; the inflated length is checked again as it grows.
    if (total + declaredSize > cap) throw tooLarge();
    let bytes: Uint8Array;
    if (method === 0) bytes = packed;
    else if (method === 8) bytes = await inflate(packed, 'deflate-raw', cap - total, tooLarge, unreadable);
    else throw unreadable();
    total += bytes.length;
    if (total > cap) throw tooLarge();
    entries.push({ name, bytes });
  }
  return entries;
}
