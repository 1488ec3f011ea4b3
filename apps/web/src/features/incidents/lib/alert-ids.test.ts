import { describe, expect, it } from 'vitest';
import { parseAlertIds } from './alert-ids';

describe('parseAlertIds', () => {
  it('reads ids separated by commas, spaces or semicolons, with or without #', () => {
    expect(parseAlertIds('12, 15 #19;20')).toEqual([12, 15, 19, 20]);
  });
  it('names each id once', () => {
    expect(parseAlertIds('7 7 #7')).toEqual([7]);
  });
  it('refuses anything that is not a positive whole id', () => {
    expect(parseAlertIds('')).toBeNull();
    expect(parseAlertIds('12, abc')).toBeNull();
    expect(parseAlertIds('0')).toBeNull();
    expect(parseAlertIds('1.5')).toBeNull();
    expect(parseAlertIds('-3')).toBeNull();
    expect(parseAlertIds('1e3')).toBeNull();
    expect(parseAlertIds('99999999999999999')).toBeNull();
  });
});
