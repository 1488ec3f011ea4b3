import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Serialises an answer through its declared schema: the answer is parsed (which keeps only the
 * fields the schema names and refuses one that does not fit it) and the result written as JSON.
 * Parsing takes zod's compiled fast path; encoding (the library's default) walks the schema
 * generically and cost several times more per answer on the busiest routes.
 */
export const answerSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
