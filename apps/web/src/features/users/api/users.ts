import type {
  ListAnswer,
  PrivilegedFlag,
  Role as RoleWire,
  RoleCatalogEntry,
  RoleCreate,
  RoleUpdate,
  Unit as UnitWire,
  User as UserWire,
  UserCreate,
  UserCreated,
  UserUpdate,
  UsersBatchAnswer,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract';
import { call, http, type Camelize } from '../../../lib/http';
import type { ListDefinition } from '../../../lib/list';

export type User = Camelize<UserWire>;
export type Role = Camelize<RoleWire>;
export type Unit = Camelize<UnitWire>;

export const userKeys = {
  all: ['users'] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  roles: ['users', 'roles'] as const,
  units: ['users', 'units'] as const,
  catalog: ['users', 'catalog'] as const,
};

/** Users over the list engine (`POST /api/users/check/`); every filter and the ordering are kept in the URL. */
export const userList = {
  basename: 'users',
  filters: {
    search: 'string',
    companyId: 'numbers',
    unitId: 'numbers',
    roleId: 'numbers',
    archived: 'boolean',
    twoFactorEnabled: 'boolean',
    isSuperuser: 'boolean',
  },
  orderable: ['username', 'first_name', 'last_name', 'email', 'company', 'created_at', 'last_login_at', 'id'],
  defaultOrdering: 'username',
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
} as const satisfies ListDefinition<Record<string, 'string' | 'numbers' | 'boolean'>>;

/** Changes to one user, and actions the user took: the system log narrowed to them, newest first. */
export function timelineList(userId: number, kind: 'timeline' | 'user_logs_timeline') {
  return {
    basename: 'users',
    url: `/api/users/${userId}/${kind}/check/`,
    filters: { search: 'string' },
    orderable: ['date_time'],
    defaultOrdering: '-date_time',
    pageSizes: [20, 50, 100],
    defaultPageSize: 20,
  } as const satisfies ListDefinition<{ search: 'string' }>;
}

export const rolesList = {
  basename: 'users',
  url: '/api/roles/check/',
  filters: { search: 'string', companyId: 'numbers' },
  orderable: ['name', 'created_at'],
  defaultOrdering: 'name',
  pageSizes: [25, 50, 100],
  defaultPageSize: 50,
} as const satisfies ListDefinition<Record<string, 'string' | 'numbers'>>;

export const fetchUser = (id: number, signal?: AbortSignal) => http.get<UserWire>(`/api/users/${id}/`, { signal });
export const createUser = (data: Camelize<UserCreate>) =>
  http.post<UserCreated>('/api/users/', { data, notifyErrors: false });
export const updateUser = (id: number, data: Camelize<UserUpdate>) =>
  http.put<UserWire>(`/api/users/${id}/`, { data, notifyErrors: false });
export const archiveUsers = (ids: number[]) => http.delete<UsersBatchAnswer>('/api/users/', { data: { ids } });
export const restoreUsers = (ids: number[]) => http.post<UsersBatchAnswer>('/api/users/restore/', { data: { ids } });
export const resetTwoFactor = (id: number) => call(endpoints.auth.resetOtp, { params: { id } });
export const resetSsoPassword = (id: number) => call(endpoints.sso.passwordReset, { params: { id } });
export const unlockUser = (id: number) => call(endpoints.auth.unlock, { params: { id } });
export const impersonate = (userId: number) => call(endpoints.auth.impersonate, { body: { userId } });
export const changePrivilegedSettings = (id: number, flags: Partial<Record<PrivilegedFlag, boolean>>) =>
  http.post<UserWire>(`/api/users/${id}/change_privileged_settings/`, { data: { privilegedSettings: flags } });

/** Every role and unit in the caller's scope (at most 500 each), for pickers and names in lists. */
export const fetchAllRoles = (signal?: AbortSignal) =>
  http.post<ListAnswer<RoleWire>>('/api/roles/check/', { params: { pageSize: 500 }, data: {}, signal });
export const fetchAllUnits = (signal?: AbortSignal) =>
  http.post<ListAnswer<UnitWire>>('/api/units/check/', { params: { pageSize: 500 }, data: {}, signal });
export const fetchRoleCatalog = (signal?: AbortSignal) =>
  http.get<RoleCatalogEntry[]>('/api/roles/catalog/', { signal });

export const createRole = (data: Camelize<RoleCreate>) =>
  http.post<RoleWire>('/api/roles/', { data, notifyErrors: false });
export const updateRole = (id: number, data: Camelize<RoleUpdate>) =>
  http.put<RoleWire>(`/api/roles/${id}/`, { data, notifyErrors: false });
export const deleteRole = (id: number) => http.delete<null>(`/api/roles/${id}/`);

/** The privileged flags of the contract (kept here as values so zod is not bundled); the type check keeps them complete. */
export const privilegedFlags = ['api_tokens', 'remote_response', 'raw_export', 'mail_content'] as const;
type MissingFlag = Exclude<PrivilegedFlag, (typeof privilegedFlags)[number]>;
const flagsComplete: [MissingFlag] extends [never] ? true : MissingFlag = true;
void flagsComplete;
