import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodFieldErrors } from './errors';

describe('zodFieldErrors', () => {
  const schema = z
    .object({ name: z.string(), tags: z.array(z.string().max(3)), nested: z.object({ n: z.number() }) })
    .strict();

  it('says a missing field is required and a wrong type is wrong, by field path', () => {
    const result = schema.safeParse({ tags: ['ok', 'toolong'], nested: { n: 'x' }, extra: 1 });
    expect(result.success).toBe(false);
    const errors = zodFieldErrors(result.error!);
    expect(errors.name).toEqual(['This field is required.']);
    expect(errors['tags.1']?.[0]).toMatch(/3/);
    expect(errors['nested.n']?.[0]).toMatch(/expected number/);
    expect(errors.extra).toEqual(['This field is not known here.']);
  });

  it('keeps messages written for the person', () => {
    const result = z.object({ code: z.string({ message: 'Enter the code.' }) }).safeParse({ code: 5 });
    expect(zodFieldErrors(result.error!)).toEqual({ code: ['Enter the code.'] });
  });
});
