import type {
  Employee as EmployeeWire,
  EmployeeActivity,
  EmployeeCreate,
  EmployeeImportAnswer,
  EmployeeUpdate,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type Employee = Camelize<EmployeeWire>;
export type Activity = Camelize<EmployeeActivity>;
export type ImportAnswer = Camelize<EmployeeImportAnswer>;

export const EMPLOYEES_PATH = '/my-company/employees';
export const employeePath = (id: number) => `${EMPLOYEES_PATH}/${id}`;

export const employeeKeys = {
  all: ['employees'] as const,
  detail: (id: number) => ['employees', 'detail', id] as const,
  activity: (id: number) => ['employees', 'activity', id] as const,
  managers: (companyId: number, search: string) => ['employees', 'managers', companyId, search] as const,
  reports: (id: number) => ['employees', 'reports', id] as const,
  assets: (id: number) => ['employees', 'assets', id] as const,
};

/** Employees over the list engine (`POST /api/employees/check/`); filters and ordering kept in the URL. */
export const employeeList = defineList(endpoints.employees.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
  omit: ['id', 'account', 'email'],
});

/** The fields the employee form shows problems beside. */
export const employeeFormFields = [
  'fullName',
  'emails',
  'accounts',
  'department',
  'title',
  'managerId',
  'phone',
  'unitId',
  'companyId',
] as const;

export const fetchEmployee = (id: number, signal?: AbortSignal) =>
  call(endpoints.employees.get, { params: { id }, signal });
export const fetchActivity = (id: number, signal?: AbortSignal) =>
  call(endpoints.employees.activity, { params: { id }, query: { limit: 20 }, signal });
/** Employees of a company whose name or address holds the text: the manager picker's choices. */
export const searchEmployees = (companyId: number, search: string, signal?: AbortSignal) =>
  call(endpoints.employees.list, {
    query: { pageSize: 20 },
    body: { companyId, ...(search ? { search } : {}) },
    signal,
  });

/** Current employees whose manager is this employee (the first 50 by name). */
export const fetchReports = (managerId: number, signal?: AbortSignal) =>
  call(endpoints.employees.list, { query: { pageSize: 50 }, body: { managerId }, signal });

/** The assets an employee owns (first 50, by name). */
export const fetchOwnedAssets = (ownerEmployeeId: number, signal?: AbortSignal) =>
  call(endpoints.assets.list, { query: { pageSize: 50 }, body: { ownerEmployeeId }, signal });

export const createEmployee = (data: Camelize<EmployeeCreate>) =>
  call(endpoints.employees.create, { body: data, shownFields: employeeFormFields });
export const updateEmployee = (id: number, data: Camelize<EmployeeUpdate>) =>
  call(endpoints.employees.update, { params: { id }, body: data, shownFields: employeeFormFields });
export const archiveEmployee = (id: number) => call(endpoints.employees.archive, { params: { id } });
export const restoreEmployee = (id: number) => call(endpoints.employees.restore, { params: { id } });

/** Imports a CSV text (plain columns or an Active Directory export) into a company. */
export const importEmployees = (csv: string, companyId: number) =>
  // The endpoint's body is declared raw (CSV or JSON): its JSON form is typed here.
  call(endpoints.employees.import, { body: { csv, companyId } as never }) as Promise<ImportAnswer>;
