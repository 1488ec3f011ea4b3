import type {
  Company as CompanyWire,
  CompanyCreate,
  CompanyUpdate,
  SsoSettings as SsoSettingsWire,
  SsoSettingsUpdate,
  Unit as UnitWire,
  UnitCreate,
  UnitUpdate,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type Company = Camelize<CompanyWire>;
export type Unit = Camelize<UnitWire>;
export type SsoSettings = Camelize<SsoSettingsWire>;

export const companyKeys = {
  all: ['companies'] as const,
  sso: (id: number) => ['companies', 'sso', id] as const,
  roles: (id: number) => ['companies', 'roles', id] as const,
  me: (id: number) => ['companies', 'me', id] as const,
};

const paging = { pageSizes: [25, 50, 100, 200], defaultPageSize: 50 } as const;

export const companyList = defineList(endpoints.companies.list, { ...paging, pick: ['search', 'kind', 'isActive'] });

export const unitList = defineList(endpoints.units.list, paging);

export const createCompany = (data: Camelize<CompanyCreate>) =>
  call(endpoints.companies.create, { body: data, notifyErrors: false });
export const updateCompany = (id: number, data: Camelize<CompanyUpdate>) =>
  call(endpoints.companies.replace, { params: { id }, body: data, notifyErrors: false });

export const fetchSsoSettings = (id: number, signal?: AbortSignal) =>
  call(endpoints.sso.settings, { params: { id }, ...(signal ? { signal } : {}) });
export const saveSsoSettings = (id: number, data: Camelize<SsoSettingsUpdate>) =>
  call(endpoints.sso.saveSettings, { params: { id }, body: data, notifyErrors: false });

/** Roles of one company, for the single sign-on default role (needs the users permission). */
export const fetchCompanyRoles = (companyId: number, signal?: AbortSignal) =>
  call(endpoints.roles.list, {
    query: { pageSize: 500 },
    body: { companyId: [companyId] },
    signal,
    notifyErrors: false,
  });

/** The signed-in user's own record: whether it sees all companies (the current user's data does not say). */
export const fetchOwnUser = (id: number, signal?: AbortSignal) =>
  call(endpoints.users.get, { params: { id }, signal, notifyErrors: false });

export const createUnit = (data: Camelize<UnitCreate>) =>
  call(endpoints.units.create, { body: data, notifyErrors: false });
export const updateUnit = (id: number, data: Camelize<UnitUpdate>) =>
  call(endpoints.units.replace, { params: { id }, body: data, notifyErrors: false });
export const deleteUnit = (id: number) => call(endpoints.units.remove, { params: { id } });
