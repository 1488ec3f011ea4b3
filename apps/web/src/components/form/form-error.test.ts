import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http';
import { fieldError } from './form-error';

describe('fieldError', () => {
  const error = new ApiError('ERR_BAD_REQUEST', 'refused', {
    status: 400,
    fieldErrors: { firstName: ['Too long.'], 'ipWhitelist.2': ['An address looks like 10.0.0.5.'] },
  });

  it('gives the first problem of a field, and of any item of a list field', () => {
    expect(fieldError(error, 'firstName')).toBe('Too long.');
    expect(fieldError(error, 'ipWhitelist')).toBe('An address looks like 10.0.0.5.');
    expect(fieldError(error, 'ip')).toBeUndefined();
    expect(fieldError(error, 'lastName')).toBeUndefined();
  });

  it('says nothing for anything but a refused call', () => {
    expect(fieldError(new Error('boom'), 'firstName')).toBeUndefined();
    expect(fieldError(null, 'firstName')).toBeUndefined();
  });
});
