import type { CurrentUser } from '@vigil/contract';
import type { core } from './locales/en/core';
import type { Translation } from './types';

/**
 * The dictionary is loaded in parts, so a screen downloads only the texts it can show: the core
 * (./locales/<language>/core.ts: shell, errors, sign-in) at start, and a page's sections with the
 * page's own code (see `lazyPage` in app/route-map.tsx). `sections.test.ts` checks, from the import
 * graph of each page, that every key the page can show belongs to the core or to the sections its
 * route loads.
 */
export type Section = Exclude<keyof Translation, keyof typeof core>;

type Loader = () => Promise<object>;

const english: Record<Section, Loader> = {
  alerts: () => import('./locales/en/alerts').then((module) => module.alerts),
  assets: () => import('./locales/en/assets').then((module) => module.assets),
  companies: () => import('./locales/en/companies').then((module) => module.companies),
  dashboard: () => import('./locales/en/dashboard').then((module) => module.dashboard),
  employees: () => import('./locales/en/employees').then((module) => module.employees),
  endpointActions: () => import('./locales/en/endpoint-actions').then((module) => module.endpointActions),
  graph: () => import('./locales/en/graph').then((module) => module.graph),
  incidents: () => import('./locales/en/incidents').then((module) => module.incidents),
  indicators: () => import('./locales/en/indicators').then((module) => module.indicators),
  investigation: () => import('./locales/en/investigation').then((module) => module.investigation),
  list: () => import('./locales/en/list').then((module) => module.list),
  matchers: () => import('./locales/en/matchers').then((module) => module.matchers),
  profile: () => import('./locales/en/profile').then((module) => module.profile),
  roles: () => import('./locales/en/roles').then((module) => module.roles),
  rules: () => import('./locales/en/rules').then((module) => module.rules),
  search: () => import('./locales/en/search').then((module) => module.search),
  sessions: () => import('./locales/en/sessions').then((module) => module.sessions),
  software: () => import('./locales/en/software').then((module) => module.software),
  systemLogs: () => import('./locales/en/system-logs').then((module) => module.systemLogs),
  triage: () => import('./locales/en/triage').then((module) => module.triage),
  units: () => import('./locales/en/units').then((module) => module.units),
  users: () => import('./locales/en/users').then((module) => module.users),
};

const russian: Record<Section, Loader> = {
  alerts: () => import('./locales/ru/alerts').then((module) => module.alerts),
  assets: () => import('./locales/ru/assets').then((module) => module.assets),
  companies: () => import('./locales/ru/companies').then((module) => module.companies),
  dashboard: () => import('./locales/ru/dashboard').then((module) => module.dashboard),
  employees: () => import('./locales/ru/employees').then((module) => module.employees),
  endpointActions: () => import('./locales/ru/endpoint-actions').then((module) => module.endpointActions),
  graph: () => import('./locales/ru/graph').then((module) => module.graph),
  incidents: () => import('./locales/ru/incidents').then((module) => module.incidents),
  indicators: () => import('./locales/ru/indicators').then((module) => module.indicators),
  investigation: () => import('./locales/ru/investigation').then((module) => module.investigation),
  list: () => import('./locales/ru/list').then((module) => module.list),
  matchers: () => import('./locales/ru/matchers').then((module) => module.matchers),
  profile: () => import('./locales/ru/profile').then((module) => module.profile),
  roles: () => import('./locales/ru/roles').then((module) => module.roles),
  rules: () => import('./locales/ru/rules').then((module) => module.rules),
  search: () => import('./locales/ru/search').then((module) => module.search),
  sessions: () => import('./locales/ru/sessions').then((module) => module.sessions),
  software: () => import('./locales/ru/software').then((module) => module.software),
  systemLogs: () => import('./locales/ru/system-logs').then((module) => module.systemLogs),
  triage: () => import('./locales/ru/triage').then((module) => module.triage),
  units: () => import('./locales/ru/units').then((module) => module.units),
  users: () => import('./locales/ru/users').then((module) => module.users),
};

export const sectionLoaders: Record<CurrentUser['locale'], Record<Section, Loader>> = { en: english, ru: russian };

export const coreLoaders: Record<CurrentUser['locale'], () => Promise<object>> = {
  en: () => import('./locales/en/core').then((module) => module.core),
  ru: () => import('./locales/ru/core').then((module) => module.core),
};
