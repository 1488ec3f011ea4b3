import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The original of a mail message as it is kept: gzip (on the thread pool, not the event loop). */
export function packOriginal(original: Buffer): Promise<Buffer> {
  return gzipAsync(original, { level: 6 });
}

/** The original bytes back from what is kept. */
export function unpackOriginal(packed: Uint8Array): Promise<Buffer> {
  return gunzipAsync(packed);
}
