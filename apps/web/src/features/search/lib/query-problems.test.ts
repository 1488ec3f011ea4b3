import { describe, expect, it } from 'vitest';
import { valueAtCursor, wordAtCursor } from './query-problems';

describe('where the cursor is in a query', () => {
  it('finds a field name being typed at the start of a term only', () => {
    expect(wordAtCursor('proc', 4)).toEqual({ word: 'proc', start: 0 });
    expect(wordAtCursor('host_name: a and (dest_p', 24)).toEqual({ word: 'dest_p', start: 18 });
    expect(wordAtCursor('host_name: a and ', 17)).toEqual({ word: '', start: 17 });
    // Inside a value (after a colon with no space) it is not a field name.
    expect(wordAtCursor('host_name:ws', 12)).toBeNull();
  });

  it('finds the value being typed after field:', () => {
    expect(valueAtCursor('severity: hi', 12)).toEqual({ field: 'severity', typed: 'hi', start: 10 });
    expect(valueAtCursor('a and (proto:', 13)).toEqual({ field: 'proto', typed: '', start: 13 });
    expect(valueAtCursor('severity: high and ', 19)).toBeNull();
    expect(valueAtCursor('title: "a b', 11)).toBeNull();
  });
});
