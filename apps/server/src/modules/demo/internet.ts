/** The internet around the customers: everyday services and the Suricata signatures that fire. */

/** Everyday internet services the networks talk to. */
export const SERVICES: { domain: string; ip: string; issuer: string; http?: boolean }[] = [
  {
    domain: 'outlook.office365.com',
    ip: '52.97.146.162',
    issuer: 'C=US, O=DigiCert Inc, CN=DigiCert Cloud Services CA-1',
  },
  {
    domain: 'login.microsoftonline.com',
    ip: '20.190.159.4',
    issuer: 'C=US, O=Microsoft Corporation, CN=Microsoft Azure RSA TLS Issuing CA 03',
  },
  {
    domain: 'teams.microsoft.com',
    ip: '52.113.194.132',
    issuer: 'C=US, O=Microsoft Corporation, CN=Microsoft Azure RSA TLS Issuing CA 07',
  },
  { domain: 'www.google.com', ip: '142.250.185.68', issuer: 'C=US, O=Google Trust Services, CN=WR2' },
  { domain: 'update.googleapis.com', ip: '142.250.186.35', issuer: 'C=US, O=Google Trust Services, CN=WR2' },
  { domain: 'slack.com', ip: '34.237.73.95', issuer: "C=US, O=Let's Encrypt, CN=R11" },
  {
    domain: 'github.com',
    ip: '140.82.121.4',
    issuer: 'C=GB, O=Sectigo Limited, CN=Sectigo ECC Domain Validation Secure Server CA',
  },
  { domain: 'www.linkedin.com', ip: '13.107.42.14', issuer: 'C=US, O=DigiCert Inc, CN=DigiCert SHA2 Secure Server CA' },
  {
    domain: 'ctldl.windowsupdate.com',
    ip: '93.184.221.240',
    issuer: 'C=US, O=Microsoft Corporation, CN=Microsoft Update Secure Server CA 2.1',
    http: true,
  },
  {
    domain: 'download.windowsupdate.com',
    ip: '13.107.4.50',
    issuer: 'C=US, O=Microsoft Corporation, CN=Microsoft Update Secure Server CA 2.1',
    http: true,
  },
  {
    domain: 'ocsp.digicert.com',
    ip: '192.229.211.108',
    issuer: 'C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1',
    http: true,
  },
  {
    domain: 'www.dhl.com',
    ip: '23.50.52.93',
    issuer: 'C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1',
  },
  {
    domain: 'api.weather.gov',
    ip: '23.52.166.79',
    issuer: 'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1',
  },
  { domain: 'archive.ubuntu.com', ip: '91.189.91.81', issuer: "C=US, O=Let's Encrypt, CN=R10", http: true },
  {
    domain: 'deb.debian.org',
    ip: '151.101.66.132',
    issuer: 'C=BE, O=GlobalSign nv-sa, CN=GlobalSign Atlas R3 DV TLS CA 2024 Q1',
    http: true,
  },
  {
    domain: 'www.dropbox.com',
    ip: '162.125.69.18',
    issuer: 'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1',
  },
];

/** The signatures a Suricata sensor with the ET Open rules would fire on this traffic. */
export interface SignaturePlan {
  sid: number;
  rev: number;
  signature: string;
  category: string;
  /** EVE alert.severity (the rule's priority). */
  severity: number;
  mitre?: string[];
  /** How often, relative to the others, it fires in background traffic (0: scenario only). */
  weight: number;
  kind: 'policy' | 'scan' | 'malware' | 'info' | 'exploit';
}

export const SIGNATURES: SignaturePlan[] = [
  {
    sid: 2013028,
    rev: 7,
    signature: 'ET POLICY curl User-Agent Outbound',
    category: 'Attempted Information Leak',
    severity: 2,
    weight: 4,
    kind: 'policy',
  },
  {
    sid: 2012648,
    rev: 5,
    signature: 'ET POLICY Dropbox.com Offsite File Backup in Use',
    category: 'Potential Corporate Privacy Violation',
    severity: 3,
    weight: 2,
    kind: 'policy',
  },
  {
    sid: 2033966,
    rev: 3,
    signature: 'ET POLICY Observed DNS Query to Remote Access Service Domain (anydesk)',
    category: 'Potential Corporate Privacy Violation',
    severity: 3,
    weight: 2,
    kind: 'policy',
    mitre: ['T1219'],
  },
  {
    sid: 2014726,
    rev: 9,
    signature: 'ET POLICY Outdated Windows Flash Version IE',
    category: 'Potential Corporate Privacy Violation',
    severity: 3,
    weight: 1,
    kind: 'policy',
  },
  {
    sid: 2027865,
    rev: 4,
    signature: 'ET INFO Observed DNS Query to .cloud TLD',
    category: 'Potentially Bad Traffic',
    severity: 4,
    weight: 5,
    kind: 'info',
  },
  {
    sid: 2031071,
    rev: 2,
    signature: 'ET INFO HTTP Request to a *.top domain',
    category: 'Potentially Bad Traffic',
    severity: 4,
    weight: 2,
    kind: 'info',
  },
  {
    sid: 2001219,
    rev: 20,
    signature: 'ET SCAN Potential SSH Scan',
    category: 'Attempted Information Leak',
    severity: 2,
    weight: 4,
    kind: 'scan',
    mitre: ['T1046'],
  },
  {
    sid: 2002910,
    rev: 6,
    signature: 'ET SCAN Potential VNC Scan 5800-5820',
    category: 'Attempted Information Leak',
    severity: 2,
    weight: 2,
    kind: 'scan',
    mitre: ['T1046'],
  },
  {
    sid: 2009582,
    rev: 3,
    signature: 'ET SCAN NMAP -sS window 1024',
    category: 'Attempted Information Leak',
    severity: 2,
    weight: 3,
    kind: 'scan',
    mitre: ['T1046'],
  },
  {
    sid: 2024364,
    rev: 4,
    signature: 'ET SCAN Possible Nmap User-Agent Observed',
    category: 'Web Application Attack',
    severity: 1,
    weight: 1,
    kind: 'scan',
    mitre: ['T1595'],
  },
  {
    sid: 2010935,
    rev: 3,
    signature: 'ET SCAN Suspicious inbound to MSSQL port 1433',
    category: 'Potentially Bad Traffic',
    severity: 2,
    weight: 2,
    kind: 'scan',
  },
  {
    sid: 2035466,
    rev: 1,
    signature: 'ET EXPLOIT Possible Apache Log4j RCE Attempt (jndi:ldap)',
    category: 'Attempted Administrator Privilege Gain',
    severity: 1,
    weight: 1,
    kind: 'exploit',
    mitre: ['T1190'],
  },
  {
    sid: 2049108,
    rev: 2,
    signature: 'ET MALWARE Loader TLS Beacon to cdn-telemetry-sync (SNI)',
    category: 'A Network Trojan was detected',
    severity: 1,
    weight: 0,
    kind: 'malware',
    mitre: ['T1071.001', 'T1573'],
  },
  {
    sid: 2049112,
    rev: 1,
    signature: 'ET MALWARE PowerShell Stager Download (upd.ps1)',
    category: 'A Network Trojan was detected',
    severity: 1,
    weight: 0,
    kind: 'malware',
    mitre: ['T1059.001', 'T1105'],
  },
  {
    sid: 2049140,
    rev: 3,
    signature: 'ET MALWARE Win32/InfoStealer CnC Checkin',
    category: 'A Network Trojan was detected',
    severity: 1,
    weight: 0,
    kind: 'malware',
    mitre: ['T1041'],
  },
  {
    sid: 2049151,
    rev: 1,
    signature: 'ET MALWARE Executable Download Disguised as PDF',
    category: 'Potentially Bad Traffic',
    severity: 2,
    weight: 0,
    kind: 'malware',
    mitre: ['T1105'],
  },
  {
    sid: 2016683,
    rev: 6,
    signature: 'ET MALWARE Cobalt Strike Beacon Observed (default malleable profile)',
    category: 'A Network Trojan was detected',
    severity: 1,
    weight: 0,
    kind: 'malware',
    mitre: ['T1071.001'],
  },
];
