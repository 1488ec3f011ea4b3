import { endpoint, idParams, listEndpoints, permission, rawBody } from '../endpoint';
import {
  employeeActivityQuerySchema,
  employeeActivitySchema,
  employeeCreateSchema,
  employeeFiltersSchema,
  employeeImportAnswerSchema,
  employeeImportTargetSchema,
  employeeResolveAnswerSchema,
  employeeResolveQuerySchema,
  employeeSchema,
  employeeUpdateSchema,
} from '../employees';

const tag = 'employees';
const can = (action: string) => permission('employees', action);

/** Employees of a company: kept by hand or imported, and resolved from account names and addresses. */
export const employeeEndpoints = {
  ...listEndpoints({
    base: '/api/employees/',
    tag,
    noun: 'employee',
    item: employeeSchema,
    filters: employeeFiltersSchema,
    access: can('view'),
    orderings: ['full_name', 'department', 'created_at', 'updated_at', 'id'],
    defaultOrdering: ['full_name'],
  }),
  resolve: endpoint({
    method: 'GET',
    path: '/api/employees/resolve/',
    summary: 'Find the employee of an account or an address',
    description:
      'The employee holding `account` (`CORP\\jdoe`, `jdoe@corp.example` or `jdoe`, any letter case) or reading ' +
      '`email`, in `company_id` or the caller’s own company; current employees before archived ones. ' +
      '`employee` is null when nobody matches.',
    tag,
    access: can('view'),
    query: employeeResolveQuerySchema,
    responses: { 200: employeeResolveAnswerSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/employees/:id/',
    summary: 'Read an employee',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: employeeSchema },
  }),
  activity: endpoint({
    method: 'GET',
    path: '/api/employees/:id/activity/',
    summary: 'Alerts, malicious mail and sign-ins of an employee',
    description:
      'The newest (at most `limit`, 20 by default) alerts naming one of the employee’s accounts or addresses, ' +
      'messages to their addresses that alerts were raised on, and logons of their accounts seen on endpoints.',
    tag,
    access: can('view'),
    params: idParams,
    query: employeeActivityQuerySchema,
    responses: { 200: employeeActivitySchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/employees/',
    summary: 'Add an employee',
    description: 'In the caller’s own company unless `company_id` names another company in the caller’s scope.',
    tag,
    access: can('add'),
    body: employeeCreateSchema,
    responses: { 201: employeeSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/employees/:id/',
    summary: 'Change some fields of an employee',
    tag,
    access: can('change'),
    params: idParams,
    body: employeeUpdateSchema,
    responses: { 200: employeeSchema },
  }),
  archive: endpoint({
    method: 'POST',
    path: '/api/employees/:id/archive/',
    summary: 'Archive an employee',
    description: 'An archived employee keeps their history and still resolves, after current employees.',
    tag,
    access: can('delete'),
    params: idParams,
    responses: { 200: employeeSchema },
  }),
  restore: endpoint({
    method: 'POST',
    path: '/api/employees/:id/restore/',
    summary: 'Bring an archived employee back',
    tag,
    access: can('change'),
    params: idParams,
    responses: { 200: employeeSchema },
  }),
  import: endpoint({
    method: 'POST',
    path: '/api/employees/import/',
    summary: 'Import employees from CSV',
    description:
      'The CSV is the body as `text/csv` (target company in the query string) or JSON `{csv, company_id}`. ' +
      'Columns full_name, emails, accounts, department, title, manager, phone, unit, distinguished_name, or ' +
      'those of an Active Directory export (Name, DisplayName, SamAccountName, UserPrincipalName, EmailAddress ' +
      'or mail, Department, Title, Manager as a DN, telephoneNumber, ProxyAddresses, DistinguishedName), in ' +
      'any letter case. A row holding an account or address of an employee updates that employee, others ' +
      'are created; Manager names (a DN or a full name) resolve within the file, then the company. At most ' +
      '100,000 rows; rows that cannot be read are listed in `rejected`.',
    tag,
    access: can('add'),
    query: employeeImportTargetSchema,
    body: rawBody('CSV text, or JSON {csv, company_id}.', ['text/csv', 'text/plain', 'application/json']),
    responses: { 200: employeeImportAnswerSchema },
  }),
};
