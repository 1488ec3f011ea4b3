import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DemoSummary } from './load-demo';

/** File in the data directory where a loaded demo leaves its accounts (read by the browser-test harness). */
export const DEMO_ACCOUNTS_FILE = 'demo-accounts.json';

/** The summary and the accounts as lines for the console. */
export function describeDemo(summary: DemoSummary): string[] {
  const e = summary.events;
  const r = summary.rules;
  const width = Math.max(...summary.accounts.map((a) => a.username.length));
  const pwWidth = Math.max(...summary.accounts.map((a) => a.password.length));
  const oneTime = summary.accounts.some((a) => a.mustChange);
  return [
    `Demo data loaded in ${summary.seconds} s (scale ${summary.scale}, seed ${summary.seed}): ${e.network} network events, ` +
      `${e.endpoint} endpoint events, ${e.mail} mail messages, ${summary.alerts} alerts, ${summary.incidents} incidents` +
      (e.rejected > 0 ? `, ${e.rejected} records refused` : '') +
      '.',
    `Detection rules for all companies: ${r.suricata} Suricata signatures, ${r.sigma} Sigma rules, ${r.yara} YARA rules` +
      (r.thresholds > 0 ? `; ${r.thresholds} threshold.config ${r.thresholds === 1 ? 'entry' : 'entries'}` : '') +
      '.',
    oneTime
      ? 'Demo accounts (passwords shown only once; each is replaced at the first sign-in):'
      : 'Demo accounts (passwords shown only once):',
    ...summary.accounts.map(
      (a) => `  ${a.username.padEnd(width)}  ${a.password.padEnd(pwWidth)}  ${a.role}, ${a.company}`,
    ),
  ];
}

/** Writes the accounts and counts to `<dataDir>/demo-accounts.json`, readable by the owner only. */
export async function writeDemoAccounts(dataDir: string, summary: DemoSummary): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, DEMO_ACCOUNTS_FILE);
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`, { mode: 0o600 });
  return file;
}
