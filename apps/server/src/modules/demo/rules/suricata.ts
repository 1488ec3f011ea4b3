/** The Suricata signatures of the demo: one for each signature its sensors fire (internet.ts). */
import { SIGNATURES, type SignaturePlan } from '../internet';

/** Suricata's classtype of each EVE alert category the demo's signatures carry. */
const CLASSTYPES: Record<string, string> = {
  'Attempted Information Leak': 'attempted-recon',
  'Potential Corporate Privacy Violation': 'policy-violation',
  'Potentially Bad Traffic': 'bad-unknown',
  'Web Application Attack': 'web-application-attack',
  'Attempted Administrator Privilege Gain': 'attempted-admin',
  'A Network Trojan was detected': 'trojan-activity',
};

/** What each signature looks at: its header and its detection options, by sid. */
const DETECTION: Record<number, { header: string; options: string }> = {
  2013028: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options: 'flow:established,to_server; http.user_agent; content:"curl/"; startswith;',
  },
  2012648: {
    header: 'tls $HOME_NET any -> $EXTERNAL_NET any',
    options: 'flow:established,to_server; tls.sni; content:"client.dropbox.com"; nocase; endswith;',
  },
  2033966: {
    header: 'dns $HOME_NET any -> any any',
    options: 'dns.query; content:".anydesk.com"; nocase; endswith;',
  },
  2014726: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options:
      'flow:established,to_server; http.uri; content:"/flash/version.xml"; http.user_agent; content:"MSIE "; content:"Windows NT 6."; distance:0;',
  },
  2027865: {
    header: 'dns $HOME_NET any -> any any',
    options: 'dns.query; content:".cloud"; nocase; endswith;',
  },
  2031071: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options: 'flow:established,to_server; http.host; content:".top"; endswith;',
  },
  2001219: {
    header: 'tcp $EXTERNAL_NET any -> $HOME_NET 22',
    options: 'flow:to_server; flags:S,12; threshold: type both, track by_src, count 5, seconds 120;',
  },
  2002910: {
    header: 'tcp $EXTERNAL_NET any -> $HOME_NET 5800:5820',
    options: 'flow:to_server; flags:S,12; threshold: type both, track by_src, count 5, seconds 60;',
  },
  2009582: {
    header: 'tcp $EXTERNAL_NET any -> $HOME_NET any',
    options: 'fragbits:!D; dsize:0; flags:S,12; ack:0; window:1024;',
  },
  2024364: {
    header: 'http $EXTERNAL_NET any -> $HOME_NET any',
    options: 'flow:established,to_server; http.user_agent; content:"Nmap Scripting Engine"; nocase;',
  },
  2010935: {
    header: 'tcp $EXTERNAL_NET any -> $HOME_NET 1433',
    options: 'flow:to_server; flags:S,12; threshold: type limit, track by_src, count 1, seconds 300;',
  },
  2035466: {
    header: 'http any any -> $HOME_NET any',
    options: 'flow:established,to_server; http.uri; content:"|24 7b|jndi|3a|ldap"; nocase;',
  },
  2049108: {
    header: 'tls $HOME_NET any -> $EXTERNAL_NET 443',
    options: 'flow:established,to_server; tls.sni; content:"cdn-telemetry-sync.net"; bsize:22;',
  },
  2049112: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options:
      'flow:established,to_server; http.uri; content:"/upd.ps1"; endswith; http.user_agent; content:"WindowsPowerShell/";',
  },
  2049140: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options:
      'flow:established,to_server; http.method; content:"POST"; http.uri; content:"/gate.php"; endswith; http.user_agent; content:"Mozilla/5.0"; bsize:11;',
  },
  2049151: {
    header: 'http $EXTERNAL_NET any -> $HOME_NET any',
    options:
      'flow:established,to_client; http.content_type; content:"application/pdf"; file.data; content:"MZ"; startswith; content:"PE|00 00|"; distance:0;',
  },
  2016683: {
    header: 'http $HOME_NET any -> $EXTERNAL_NET any',
    options:
      'flow:established,to_server; http.method; content:"GET"; http.uri; content:"/jquery-3.3.1.min.js"; bsize:20; http.cookie; pcre:"/^[A-Za-z0-9+\\/]{100,}={0,2}$/";',
  },
};

/** One signature as a rules-file line: the sensor's msg, gid, sid and rev, and its ATT&CK ids. */
function signatureRule(plan: SignaturePlan): string {
  const detection = DETECTION[plan.sid];
  const classtype = CLASSTYPES[plan.category];
  if (!detection || !classtype) throw new Error(`the demo has no rule text for sid ${plan.sid}`);
  const metadata = [...(plan.mitre ?? []).map((id) => `mitre_technique_id ${id}`), 'created_at 2026_11_22'].join(', ');
  return (
    `alert ${detection.header} (msg:"${plan.signature}"; ${detection.options} ` +
    `classtype:${classtype}; priority:${plan.severity}; gid:1; sid:${plan.sid}; rev:${plan.rev}; metadata: ${metadata};)`
  );
}

/** The demo's rules file: every signature its EVE alerts name. */
export function demoSuricataRules(): { name: string; content: string }[] {
  const content = [
    '# Vigil demo signatures: one for each alert the demo sensors raise.',
    ...SIGNATURES.map(signatureRule),
    '',
  ].join('\n');
  return [{ name: 'vigil-demo.rules', content }];
}
