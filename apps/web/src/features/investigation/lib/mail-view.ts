/** A mail address as the console shows it; `address` is null when the header gave only a display name. */
export interface MailAddressView {
  address: string | null;
  name: string | null;
}

/** `Name <address>`, `address`, or `Name <>` for a display name without an address (as the header wrote it). */
export function formatAddress(entry: MailAddressView): string {
  if (entry.address === null) return `${entry.name ?? ''} <>`;
  return entry.name ? `${entry.name} <${entry.address}>` : entry.address;
}

/** The attachments whose links include `url`, by name (for "in attachment …" next to a link). */
export function attachmentsWithUrl(
  url: string,
  attachments: readonly { filename: string | null; urls: readonly string[] }[],
  unnamed: string,
): string[] {
  return attachments.filter((a) => a.urls.includes(url)).map((a) => a.filename ?? unnamed);
}
