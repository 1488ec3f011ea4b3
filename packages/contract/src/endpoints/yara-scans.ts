import { z } from 'zod';
import { endpoint, permission } from '../endpoint';
import { sha256ParamSchema } from '../ingest';
import { fileYaraSchema, yaraScanProgressSchema } from '../yara-scans';

const warehouse = permission('warehouse', 'view');
const tag = 'warehouse';

/** YARA scanning of the file warehouse: a file's matches and the background scan's progress. */
export const yaraScanEndpoints = {
  fileMatches: endpoint({
    method: 'GET',
    path: '/api/warehouse/:sha256/yara/',
    summary: 'Read the YARA matches of a file',
    description:
      'The rules that matched the file, each with its namespace, tags, meta and matched string identifiers and ' +
      'offsets, for the caller’s companies that saw it.',
    tag,
    access: warehouse,
    params: z.object({ sha256: sha256ParamSchema }),
    responses: { 200: fileYaraSchema },
  }),
  progress: endpoint({
    method: 'GET',
    path: '/api/warehouse/yara-scan/',
    summary: 'Read the progress of the YARA scan of the warehouse',
    description: 'Files scanned with the YARA rules enabled now, out of all, and whether the scan is running.',
    tag,
    access: warehouse,
    responses: { 200: yaraScanProgressSchema },
  }),
};
