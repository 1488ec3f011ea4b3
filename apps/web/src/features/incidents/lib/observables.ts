import { filesUrl, observablePivot } from '../../triage';

/** Kinds in the order the incident page lists them; others follow alphabetically. */
const kindOrder = ['ip', 'host', 'user', 'domain', 'url', 'hash', 'file', 'email'];

const SHA256 = /^[a-f0-9]{64}$/i;

/** Where an incident observable leads: a SHA-256 to the file it names, the rest as every page pivots them. */
export function incidentPivot(kind: string, value: string): string | null {
  if (kind === 'hash' && SHA256.test(value)) return filesUrl({ sha256: value.toLowerCase() });
  return observablePivot(kind, value);
}

/** Observables grouped by kind, in a stable order, values sorted and unique. */
export function groupObservables(observables: readonly { kind: string; value: string }[]) {
  const groups = new Map<string, string[]>();
  for (const { kind, value } of observables) {
    const values = groups.get(kind) ?? [];
    if (!values.includes(value)) values.push(value);
    groups.set(kind, values);
  }
  const rank = (kind: string) => {
    const index = kindOrder.indexOf(kind);
    return index === -1 ? kindOrder.length : index;
  };
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, values]) => ({ kind, values: values.sort((a, b) => a.localeCompare(b)) }));
}
