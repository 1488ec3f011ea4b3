import { describe, expect, it } from 'vitest';
import { camelizeKeys } from '../../../lib/http';
import { fileApiFilters } from './investigation';

describe('investigation API helpers', () => {
  it('sends the files page’s ?sha256= as the hash filter, lower-cased', () => {
    expect(fileApiFilters({ sha256: 'AB'.repeat(32), search: 'x' })).toEqual({ hash: 'ab'.repeat(32), search: 'x' });
    expect(fileApiFilters({ search: 'x' })).toEqual({ search: 'x' });
  });

  it('keeps an event’s raw record with the keys it arrived with', () => {
    const answer = camelizeKeys({ event_type: 'dns', raw: { event_type: 'dns', dns: { rr_name: 'a' } } });
    expect(answer).toEqual({ eventType: 'dns', raw: { event_type: 'dns', dns: { rr_name: 'a' } } });
  });
});
