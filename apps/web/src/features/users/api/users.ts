import type {
  PrivilegedFlag,
  Role as RoleWire,
  RoleCreate,
  RoleUpdate,
  Unit as UnitWire,
  User as UserWire,
  UserCreate,
  UserUpdate,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

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
export const userList = defineList(endpoints.users.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
  omit: ['id'],
});

/** Changes to one user, and actions the user took: the system log narrowed to them, newest first. */
export function timelineList(userId: number, kind: 'timeline' | 'user_logs_timeline') {
  return defineList(kind === 'timeline' ? endpoints.users.timeline : endpoints.users.actionsTimeline, {
    pathParams: { user: userId },
    pick: ['search'],
    pageSizes: [20, 50, 100],
    defaultPageSize: 20,
  });
}

export const rolesList = defineList(endpoints.roles.list, { pageSizes: [25, 50, 100], defaultPageSize: 50 });

export const fetchUser = (id: number, signal?: AbortSignal) => call(endpoints.users.get, { params: { id }, signal });
export const createUser = (data: Camelize<UserCreate>) =>
  call(endpoints.users.create, { body: data, notifyErrors: false });
export const updateUser = (id: number, data: Camelize<UserUpdate>) =>
  call(endpoints.users.replace, { params: { id }, body: data, notifyErrors: false });
export const archiveUsers = (ids: number[]) => call(endpoints.users.archive, { body: { ids } });
export const restoreUsers = (ids: number[]) => call(endpoints.users.restore, { body: { ids } });
export const resetTwoFactor = (id: number) => call(endpoints.auth.resetOtp, { params: { id } });
export const resetSsoPassword = (id: number) => call(endpoints.sso.passwordReset, { params: { id } });
export const unlockUser = (id: number) => call(endpoints.auth.unlock, { params: { id } });
export const impersonate = (userId: number) => call(endpoints.auth.impersonate, { body: { userId } });
export const changePrivilegedSettings = (id: number, flags: Partial<Record<PrivilegedFlag, boolean>>) =>
  call(endpoints.users.changePrivilegedSettings, { params: { id }, body: { privilegedSettings: flags } });

/** Every role and unit in the caller's scope (at most 500 each), for pickers and names in lists. */
export const fetchAllRoles = (signal?: AbortSignal) =>
  call(endpoints.roles.list, { query: { pageSize: 500 }, body: {}, signal });
export const fetchAllUnits = (signal?: AbortSignal) =>
  call(endpoints.units.list, { query: { pageSize: 500 }, body: {}, signal });
export const fetchRoleCatalog = (signal?: AbortSignal) => call(endpoints.roles.catalog, { signal });

export const createRole = (data: Camelize<RoleCreate>) =>
  call(endpoints.roles.create, { body: data, notifyErrors: false });
export const updateRole = (id: number, data: Camelize<RoleUpdate>) =>
  call(endpoints.roles.replace, { params: { id }, body: data, notifyErrors: false });
export const deleteRole = (id: number) => call(endpoints.roles.remove, { params: { id } });

/** The privileged flags of the contract (kept here as values so zod is not bundled); the type check keeps them complete. */
export const privilegedFlags = ['api_tokens', 'remote_response', 'raw_export', 'mail_content'] as const;
type MissingFlag = Exclude<PrivilegedFlag, (typeof privilegedFlags)[number]>;
const flagsComplete: [MissingFlag] extends [never] ? true : MissingFlag = true;
void flagsComplete;
