import { incidentStatuses } from '@vigil/contract/client';
import { describe, expect, it } from 'vitest';
import { allowedTransitions, canTransition, isClosingStatus, isReopening } from './transitions';

describe('incident workflow', () => {
  it('lets an open incident move forward to any later status', () => {
    expect(allowedTransitions('open')).toEqual(['investigating', 'contained', 'resolved', 'closed']);
  });

  it('never goes back to open, and never offers the current status', () => {
    for (const status of incidentStatuses) {
      expect(allowedTransitions(status)).not.toContain('open');
      expect(allowedTransitions(status)).not.toContain(status);
    }
  });

  it('reopens resolved and closed incidents only into investigation', () => {
    expect(allowedTransitions('resolved')).toEqual(['investigating', 'closed']);
    expect(allowedTransitions('closed')).toEqual(['investigating']);
    expect(canTransition('closed', 'resolved')).toBe(false);
    expect(isReopening('closed', 'investigating')).toBe(true);
    expect(isReopening('open', 'investigating')).toBe(false);
  });

  it('lets a contained incident go back to investigation when containment fails', () => {
    expect(canTransition('contained', 'investigating')).toBe(true);
    expect(canTransition('investigating', 'open')).toBe(false);
  });

  it('asks for a resolution when resolving or closing', () => {
    expect(incidentStatuses.filter(isClosingStatus)).toEqual(['resolved', 'closed']);
  });
});
