import { describe, expect, it } from 'vitest';
import { subscriberOptions } from './subscriber-options';

describe('subscriberOptions', () => {
  const users = [
    { id: 3, username: 'anna', fullName: 'Anna Petrova' },
    { id: 7, username: 'carl', fullName: 'carl' },
  ];

  it('names each user by full name and username, or the username alone', () => {
    expect(subscriberOptions(users, [3])).toEqual([
      { value: '3', label: 'Anna Petrova (anna)' },
      { value: '7', label: 'carl' },
    ]);
  });

  it('keeps chosen users the list lacks, under their id', () => {
    expect(subscriberOptions(users, [7, 12]).map((option) => option.label)).toEqual([
      'Anna Petrova (anna)',
      'carl',
      '#12',
    ]);
    expect(subscriberOptions([], [])).toEqual([]);
  });
});
