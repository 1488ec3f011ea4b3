/** Writes `src/client/endpoints.generated.ts` from the endpoint declarations: `npm run generate:client`. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientEndpointsSource } from '../src/client/source';
import { endpoints } from '../src/endpoints/index';

const target = fileURLToPath(new URL('../src/client/endpoints.generated.ts', import.meta.url));
writeFileSync(target, clientEndpointsSource(endpoints));
console.log(`Wrote ${target}`);
