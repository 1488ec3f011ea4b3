import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loggableError, zodFieldErrors } from './errors';

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

describe('loggableError', () => {
  it('keeps the type, code, message and stack, with NUL and lone surrogates written out', () => {
    const error = Object.assign(new Error('invalid byte sequence near "ab\u0000\ud800"'), { code: '22021' });
    const logged = loggableError(error);
    expect(logged).toMatchObject({
      type: 'Error',
      code: '22021',
      message: 'invalid byte sequence near "ab\\x00\\ud800"',
    });
    for (const text of [String(logged.message), String(logged.stack)]) {
      expect(text).not.toContain('\u0000');
      expect(text).not.toMatch(/\p{Cs}/u);
    }
    expect(String(logged.stack)).toContain('\n');
    expect(loggableError('plain \u0000 text')).toEqual({ type: 'string', message: 'plain \\x00 text' });
  });
});
