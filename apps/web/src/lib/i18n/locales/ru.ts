import { alerts } from './ru/alerts';
import { assets } from './ru/assets';
import { companies } from './ru/companies';
import { core } from './ru/core';
import { dashboard } from './ru/dashboard';
import { employees } from './ru/employees';
import { endpointActions } from './ru/endpoint-actions';
import { graph } from './ru/graph';
import { incidents } from './ru/incidents';
import { indicators } from './ru/indicators';
import { investigation } from './ru/investigation';
import { list } from './ru/list';
import { matchers } from './ru/matchers';
import { profile } from './ru/profile';
import { roles } from './ru/roles';
import { rules } from './ru/rules';
import { search } from './ru/search';
import { sessions } from './ru/sessions';
import { software } from './ru/software';
import { systemLogs } from './ru/system-logs';
import { triage } from './ru/triage';
import { units } from './ru/units';
import { users } from './ru/users';
import type { Translation } from '../types';

/**
 * Russian.
 * The whole dictionary, for types and tests; the console loads it in parts (../sections.ts).
 */
export const ru: Translation = {
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
