import { z } from 'zod';
import { endpoint, publicAccess, rawAnswer } from '../endpoint';

const tag = 'reference';

/** The API's own reference, generated from these declarations. */
export const docsEndpoints = {
  openapi: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'The OpenAPI 3.1 document of this API',
    tag,
    access: publicAccess,
    responses: { 200: z.record(z.string(), z.unknown()) },
  }),
  page: endpoint({
    method: 'GET',
    path: '/api/docs/',
    summary: 'The API reference as a readable page',
    tag,
    access: publicAccess,
    responses: { 200: rawAnswer('An HTML page listing every endpoint with its parameters and answers.', 'text/html') },
  }),
};
