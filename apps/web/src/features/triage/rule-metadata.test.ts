import { describe, expect, it } from 'vitest';
import { ruleMetadataEntries, ruleMetadataValue } from './rule-metadata';

describe('rule metadata', () => {
  it('lays out what an ET rule says of itself: known keys first, ATT&CK ids left to the ATT&CK row', () => {
    const entries = ruleMetadataEntries({
      updated_at: ['2020_08_19'],
      affected_product: ['Apache_Struts2', 'Web_Server_Applications'],
      mitre_tactic_id: ['TA0001'],
      mitre_technique_id: ['T1190'],
      mitre_technique_name: ['Exploit_Public_Facing_Application'],
      signature_severity: ['Major'],
      created_at: ['2017_03_08'],
      deployment: ['Perimeter', 'Internal'],
      cve: ['CVE_2017_5638'],
    });
    expect(entries).toEqual([
      { key: 'signature_severity', known: 'signature_severity', value: 'Major' },
      { key: 'deployment', known: 'deployment', value: 'Perimeter, Internal' },
      { key: 'affected_product', known: 'affected_product', value: 'Apache Struts2, Web Server Applications' },
      { key: 'mitre_technique_name', known: 'mitre_technique_name', value: 'Exploit Public Facing Application' },
      { key: 'created_at', known: 'created_at', value: '2017-03-08' },
      { key: 'updated_at', known: 'updated_at', value: '2020-08-19' },
      { key: 'cve', known: null, value: 'CVE 2017 5638' },
    ]);
  });

  it('shows nothing for what is not a metadata object', () => {
    expect(ruleMetadataEntries(undefined)).toEqual([]);
    expect(ruleMetadataEntries(['a'])).toEqual([]);
    expect(ruleMetadataEntries({ tag: [] })).toEqual([]);
    expect(ruleMetadataValue('2019_7_1')).toBe('2019 7 1');
  });
});
