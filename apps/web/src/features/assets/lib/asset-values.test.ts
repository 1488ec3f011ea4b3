import { describe, expect, it } from 'vitest';
import { assetTagColour, isCidr, readCidrLines, riskLevel, splitList } from './asset-values';

describe('assetTagColour', () => {
  it('gives a tag one of four colours, the same whatever the case', () => {
    for (const tag of ['pci', 'dmz', 'finance', 'domain-controller', 'Ёлка']) {
      expect([1, 2, 3, 4]).toContain(assetTagColour(tag));
    }
    expect(assetTagColour('PCI ')).toBe(assetTagColour('pci'));
  });

  it('spreads tags over the four colours', () => {
    const colours = new Set(['pci', 'dmz', 'finance', 'lab', 'vip', 'legacy', 'prod', 'test'].map(assetTagColour));
    expect(colours.size).toBeGreaterThan(2);
  });
});

describe('isCidr and readCidrLines', () => {
  it('takes IPv4 and IPv6 networks with a prefix', () => {
    expect(isCidr('10.0.0.0/8')).toBe(true);
    expect(isCidr('192.168.1.0/24')).toBe(true);
    expect(isCidr('2001:db8::/32')).toBe(true);
    expect(isCidr('10.0.0.0')).toBe(false);
    expect(isCidr('10.0.0.0/33')).toBe(false);
    expect(isCidr('300.0.0.0/8')).toBe(false);
    expect(isCidr('2001:db8::/129')).toBe(false);
    expect(isCidr('corp.example/24')).toBe(false);
  });

  it('reads one network a line, names the bad lines and drops blanks and repeats', () => {
    expect(readCidrLines('10.0.0.0/8\n\n 192.168.0.0/16 \r\nnope\n10.0.0.0/8\n')).toEqual({
      cidrs: ['10.0.0.0/8', '192.168.0.0/16'],
      bad: [{ line: 4, text: 'nope' }],
    });
  });
});

describe('splitList', () => {
  it('splits at commas, semicolons and spaces', () => {
    expect(splitList(' 10.0.0.1, 10.0.0.2;10.0.0.3\n10.0.0.4  ')).toEqual([
      '10.0.0.1',
      '10.0.0.2',
      '10.0.0.3',
      '10.0.0.4',
    ]);
    expect(splitList('')).toEqual([]);
  });
});

describe('riskLevel', () => {
  it('names the figure by bands', () => {
    expect([0, 2, 19, 20, 39, 40, 79, 80, 300].map(riskLevel)).toEqual([
      'none',
      'low',
      'low',
      'elevated',
      'elevated',
      'high',
      'high',
      'severe',
      'severe',
    ]);
  });
});
