import { alerts } from './en/alerts';
import { assets } from './en/assets';
import { companies } from './en/companies';
import { core } from './en/core';
import { dashboard } from './en/dashboard';
import { employees } from './en/employees';
import { endpointActions } from './en/endpoint-actions';
import { graph } from './en/graph';
import { incidents } from './en/incidents';
import { indicators } from './en/indicators';
import { investigation } from './en/investigation';
import { list } from './en/list';
import { matchers } from './en/matchers';
import { profile } from './en/profile';
import { roles } from './en/roles';
import { rules } from './en/rules';
import { search } from './en/search';
import { sessions } from './en/sessions';
import { software } from './en/software';
import { systemLogs } from './en/system-logs';
import { triage } from './en/triage';
import { units } from './en/units';
import { users } from './en/users';

/**
 * English: the reference language. Every other language has exactly these keys (see types.ts and the test).
 * The whole dictionary, for types and tests; the console loads it in parts (../sections.ts).
 */
export const en = {
  ...core,
  list,
  systemLogs,
  profile,
  sessions,
  users,
  roles,
  companies,
  units,
  triage,
  alerts,
  incidents,
  investigation,
  endpointActions,
  dashboard,
  graph,
  indicators,
  assets,
  matchers,
  rules,
  search,
  employees,
  software,
};
