import type { DemoApi } from './api';

/**
 * The demo's saved searches: hunts an analyst keeps, shared by the provider with both customers and
 * switched on before the traffic arrives, so that their first run (after it) writes reports on what
 * the scenario did: the encoded PowerShell cradle, the DLL registered by rundll32, the credential
 * dumper fetched from a file share.
 */
const plans = [
  {
    name: 'Encoded PowerShell',
    query: 'process_name: powershell.exe and command_line: *-enc*',
  },
  {
    name: 'DLL registered by rundll32',
    query: 'process_name: rundll32.exe and command_line: *DllRegisterServer*',
  },
  {
    name: 'Credential dumping tools',
    query: 'mimikatz or procdump or "sekurlsa"',
  },
] as const;

/** Creates the saved searches, enabled, for the customers; answers their ids. */
export async function createDemoSavedSearches(api: DemoApi, customerIds: readonly number[]): Promise<number[]> {
  const ids: number[] = [];
  for (const plan of plans) {
    const saved = await api.post<{ id: number }>('/api/search/saved/', {
      ...plan,
      type: ['endpoint'],
      enabled: true,
      sharing: 'companies',
      company_ids: [...customerIds],
      interval_minutes: 15,
    });
    ids.push(saved.id);
  }
  return ids;
}

/** Runs each saved search now, over the batches that arrived since it was switched on. */
export async function runDemoSavedSearches(api: DemoApi, ids: readonly number[]): Promise<void> {
  for (const id of ids) await api.post(`/api/search/saved/${id}/run/`, {});
}
