/** IANA zones the browser knows, with their current UTC offset, for a searchable picker. */
export function timeZoneOptions(now = new Date()): { value: string; label: string }[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
  return all.map((zone) => ({ value: zone, label: `${zone.replace(/_/g, ' ')} (${offsetOf(zone, now)})` }));
}

/** "UTC+03:00" for a zone at a moment. */
export function offsetOf(zone: string, now = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((item) => item.type === 'timeZoneName')?.value;
    return !part || part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
  } catch {
    return 'UTC';
  }
}
