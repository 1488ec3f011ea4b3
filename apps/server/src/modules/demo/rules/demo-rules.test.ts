import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEndpointLines, parseMail } from '../../ingest/parsers';
import { compileSigmaRule, SigmaEngine } from '../../rules/sigma';
import { parseRulesFile } from '../../rules/suricata/rules-file';
import { YaraScanner } from '../../rules/yara/yara-scanner';
import { EndpointGenerator } from '../endpoint';
import { scenarioFiles } from '../files';
import { batches, generateDemo } from '../generate';
import { SIGNATURES } from '../internet';
import { Random } from '../random';
import { CUSTOMERS } from '../scenario';
import type { TimedLine } from '../timeline';
import { DEMO_SIGMA_RULES } from './sigma';
import { demoSuricataRules } from './suricata';
import { DEMO_YARA_RULES } from './yara';

const now = Date.parse('2026-11-22T12:00:00Z');

/** The hosts where each Sigma rule's story step happens, once each (two hosts run the encoded PowerShell). */
const STORY_MATCHES: Record<string, string[]> = {
  'Office Application Starts Rundll32': ['NW-WS-017'],
  'Run Key Starts Rundll32 With a DLL From the User Profile': ['NW-WS-017'],
  'Domain Admins Group Listed With Net': ['NW-WS-017'],
  'Hidden PowerShell With an Encoded Command': ['AC-RDS-01', 'NW-WS-023'],
  'PowerShell Downloads an Executable Into a Temp Folder': ['NW-SRV-FS01'],
  'Credential Dumping Commands on a Command Line': ['NW-SRV-FS01'],
  'Executable With a Document Double Extension Started': ['AC-LAB-02'],
  'Browser Saved Logins Copied by Another Program': ['AC-LAB-02'],
  'Remote Access Tool Started From a Downloads Folder': ['AC-REC-01'],
  'Event Log Cleared With Wevtutil': ['NW-SRV-FS01'],
};

const engine = new SigmaEngine(DEMO_SIGMA_RULES.map((file) => compileSigmaRule(file.content)));

/** The title and host (without its domain) of every Sigma match on these endpoint lines. */
function sigmaMatches(lines: readonly TimedLine[]): string[] {
  return batches(lines, 1000)
    .flatMap((body) => parseEndpointLines(body))
    .flatMap((r) =>
      r.ok ? engine.match(r.event).map((m) => `${m.rule.title} @ ${(r.event.host.name ?? '').split('.')[0]}`) : [],
    );
}

describe('the demo rule sets', () => {
  it('have one Suricata signature for each signature the demo sensors fire, with its gid, sid, rev and msg', () => {
    const files = demoSuricataRules();
    const parsed = parseRulesFile(files[0]!.content);
    expect(parsed.refused).toEqual([]);
    expect(parsed.rules.map(({ rule }) => [rule.gid, rule.sid, rule.rev, rule.msg])).toEqual(
      SIGNATURES.map((s) => [1, s.sid, s.rev, s.signature]),
    );
    for (const { rule } of parsed.rules) {
      const plan = SIGNATURES.find((s) => s.sid === rule.sid)!;
      expect([rule.sid, rule.enabled, rule.classtype !== null, rule.mitreTechniqueIds]).toEqual([
        plan.sid,
        true,
        true,
        plan.mitre ?? [],
      ]);
    }
  });

  it('fire each Sigma rule on its step of the story and nothing else', () => {
    const story = CUSTOMERS.flatMap((customer) => {
      const files = scenarioFiles(new Random(5).fork('files'));
      const generator = new EndpointGenerator(new Random(5).fork(customer.key), customer, now, files);
      generator.scenario();
      return sigmaMatches(generator.lines);
    });
    const expected = Object.entries(STORY_MATCHES).flatMap(([title, hosts]) => hosts.map((h) => `${title} @ ${h}`));
    expect(story.sort()).toEqual(expected.sort());
    expect(Object.keys(STORY_MATCHES).sort()).toEqual(
      DEMO_SIGMA_RULES.map((f) => /^title: (.+)$/m.exec(f.content)![1]).sort(),
    );
  });

  it('fire no Sigma rule on the everyday activity of either customer', () => {
    for (const customer of CUSTOMERS) {
      const files = scenarioFiles(new Random(9).fork('files'));
      const generator = new EndpointGenerator(new Random(9).fork(customer.key), customer, now, files);
      generator.background(5_000);
      expect(sigmaMatches(generator.lines), customer.name).toEqual([]);
    }
  }, 30_000);

  describe('YARA', () => {
    let scanner: YaraScanner;
    beforeAll(async () => {
      scanner = await YaraScanner.open(
        DEMO_YARA_RULES.map((f) => ({ namespace: f.name, source: f.content })),
        { timeoutMs: 10_000 },
      );
    });
    afterAll(() => scanner.close());

    it('matches the phishing attachments and none of the everyday invoices', async () => {
      const demo = generateDemo({ seed: 4, scale: 'default', now });
      const found: string[] = [];
      let scanned = 0;
      for (const mail of demo.customers.flatMap((c) => c.mail)) {
        const parsed = await parseMail(mail.raw);
        if (!parsed.ok) throw new Error(`a demo mail does not parse: ${mail.subject}`);
        for (const attachment of parsed.message.attachments) {
          scanned++;
          for (const match of await scanner.scan(attachment.content, { filename: attachment.filename ?? '' }))
            found.push(`${match.rule} @ ${attachment.filename}`);
        }
      }
      expect(scanned).toBeGreaterThan(20);
      expect(found.sort()).toEqual([
        'Demo_Browser_Credential_Stealer @ Lab_Results_2291.pdf.exe',
        'Demo_Executable_Named_As_Document @ Lab_Results_2291.pdf.exe',
        'Demo_Office_Macro_Dll_Dropper @ Invoice_INV-88231.doc',
      ]);
    });
  });
});
