/** The server's limit on an import body. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/** Refused rows listed in the import dialog; the rest are counted. */
export const IMPORT_ROWS_SHOWN = 200;

/** Why a chosen file cannot be imported (`notCsv`, `tooLarge`), or null when it can. */
export function checkCsvFile(file: { name: string; size: number }): 'notCsv' | 'tooLarge' | null {
  if (!/\.(csv|txt)$/i.test(file.name)) return 'notCsv';
  if (file.size > IMPORT_MAX_BYTES) return 'tooLarge';
  return null;
}
