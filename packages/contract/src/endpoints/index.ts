import type { EndpointSpec } from '../endpoint';
import { docsEndpoints } from './docs';
import { alertEndpoints } from './alerts';
import { assetEndpoints } from './assets';
import { auditEndpoints } from './audit';
import { authEndpoints } from './auth';
import { companyEndpoints } from './companies';
import { employeeEndpoints } from './employees';
import { eventEndpoints } from './events';
import { graphEndpoints } from './graph';
import { healthEndpoints } from './health';
import { incidentEndpoints } from './incidents';
import { indicatorEndpoints } from './indicators';
import { ingestEndpoints } from './ingest';
import { liveEndpoints } from './live';
import { mailEndpoints } from './mail';
import { matcherEndpoints } from './matchers';
import { roleEndpoints } from './roles';
import { savedSearchEndpoints } from './saved-searches';
import { searchEndpoints } from './search';
import { ruleEndpoints } from './rules';
import { sessionEndpoints } from './sessions';
import { softwareEndpoints } from './software';
import { ssoEndpoints } from './sso';
import { userEndpoints } from './users';
import { widgetEndpoints } from './widgets';
import { unitEndpoints } from './units';
import { yaraScanEndpoints } from './yara-scans';

/**
 * Every endpoint of the API, by area. The server registers exactly these routes (a route outside
 * them fails at start-up), the console calls them through its typed client, and the OpenAPI
 * document lists them.
 */
export const endpoints = {
  docs: docsEndpoints,
  alerts: alertEndpoints,
  assets: assetEndpoints,
  audit: auditEndpoints,
  auth: authEndpoints,
  companies: companyEndpoints,
  employees: employeeEndpoints,
  events: eventEndpoints,
  graph: graphEndpoints,
  health: healthEndpoints,
  incidents: incidentEndpoints,
  indicators: indicatorEndpoints,
  ingest: ingestEndpoints,
  live: liveEndpoints,
  mail: mailEndpoints,
  matchers: matcherEndpoints,
  roles: roleEndpoints,
  rules: ruleEndpoints,
  search: searchEndpoints,
  savedSearches: savedSearchEndpoints,
  sessions: sessionEndpoints,
  software: softwareEndpoints,
  sso: ssoEndpoints,
  users: userEndpoints,
  widgets: widgetEndpoints,
  units: unitEndpoints,
  yaraScans: yaraScanEndpoints,
};

function isEndpoint(value: unknown): value is EndpointSpec {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;
}

function collect(value: unknown, name: string, into: Map<EndpointSpec, string>): void {
  if (isEndpoint(value)) {
    if (!into.has(value)) into.set(value, name);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) collect(item, name ? `${name}.${key}` : key, into);
}

/** Every declared endpoint once, with its name in `endpoints` (e.g. `units.create`). */
export function endpointEntries(): { name: string; spec: EndpointSpec }[] {
  const found = new Map<EndpointSpec, string>();
  collect(endpoints, '', found);
  return [...found].map(([spec, name]) => ({ name, spec }));
}
