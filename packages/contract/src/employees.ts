import { z } from 'zod';
import { csvImportAnswerSchema, csvImportRejectionSchema } from './csv-import';

/** Employees of a company: who they are, how they sign in and which addresses they read. */

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const oneOrMany = <T extends z.ZodType>(item: T, max = 500) => z.union([item, z.array(item).max(max)]);

export const EMPLOYEE_MAX_EMAILS = 50;
export const EMPLOYEE_MAX_ACCOUNTS = 50;

/** An e-mail address, kept in lower case. */
export const employeeEmailSchema = z
  .email({ message: 'Enter a valid e-mail address.' })
  .trim()
  .max(254, 'An e-mail address has at most 254 characters.')
  .toLowerCase();

/**
 * A log-in name as the systems write it: `CORP\jdoe`, a UPN `jdoe@corp.example`, or a bare `jdoe`.
 * Kept in lower case, since Windows compares account names without case.
 */
export const employeeAccountSchema = z
  .string({ message: 'An account is text, such as CORP\\jdoe or jdoe@corp.example.' })
  .trim()
  .min(1, 'An account cannot be empty.')
  .max(256, 'An account has at most 256 characters.')
  .regex(/^[^\s,;]+$/, 'An account has no spaces, commas or semicolons (CORP\\jdoe, jdoe@corp.example, jdoe).')
  .toLowerCase();

const text = (max: number, what: string) => z.string().trim().max(max, `${what} has at most ${max} characters.`);

export const employeeSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  full_name: z.string(),
  emails: z.array(z.string()),
  accounts: z.array(z.string()),
  department: z.string(),
  title: z.string(),
  manager_id: z.number().int().nullable(),
  manager_name: z.string().nullable(),
  phone: z.string(),
  unit_id: z.number().int().nullable(),
  unit_name: z.string().nullable(),
  /** The Active Directory distinguished name an import gave (Manager DNs resolve by it). */
  distinguished_name: z.string().nullable(),
  /** The assets (not archived) this employee owns. */
  asset_count: z.number().int(),
  archived: z.boolean(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Employee = z.infer<typeof employeeSchema>;

export const employeeCreateSchema = z
  .object({
    full_name: z
      .string({ message: 'An employee needs a full name.' })
      .trim()
      .min(1, 'An employee needs a full name.')
      .max(200, 'A full name has at most 200 characters.'),
    emails: z
      .array(employeeEmailSchema)
      .max(EMPLOYEE_MAX_EMAILS, `At most ${EMPLOYEE_MAX_EMAILS} e-mail addresses.`)
      .optional(),
    accounts: z
      .array(employeeAccountSchema)
      .max(EMPLOYEE_MAX_ACCOUNTS, `At most ${EMPLOYEE_MAX_ACCOUNTS} accounts.`)
      .optional(),
    department: text(200, 'A department').optional(),
    title: text(200, 'A title').optional(),
    /** Another employee of the same company. */
    manager_id: id.nullable().optional(),
    phone: text(50, 'A phone number').optional(),
    unit_id: id.nullable().optional(),
    /** Defaults to the caller's own company. */
    company_id: id.optional(),
  })
  .strict();
export type EmployeeCreate = z.input<typeof employeeCreateSchema>;

export const employeeUpdateSchema = employeeCreateSchema.omit({ company_id: true }).partial().strict();
export type EmployeeUpdate = z.input<typeof employeeUpdateSchema>;

export const employeeFiltersSchema = z
  .object({
    /** Name, department, title, any e-mail address or account contains this. */
    search: z.string().trim().max(200).optional(),
    company_id: oneOrMany(z.number().int()).optional(),
    department: oneOrMany(z.string().trim().min(1).max(200)).optional(),
    unit_id: oneOrMany(z.number().int()).optional(),
    manager_id: oneOrMany(z.number().int()).optional(),
    /** Employees holding this account (any letter case). */
    account: employeeAccountSchema.optional(),
    /** Employees reading this address (any letter case). */
    email: employeeEmailSchema.optional(),
    /** false (default): current employees; true: archived ones only. */
    archived: z.boolean().optional(),
    id: oneOrMany(z.number().int()).optional(),
  })
  .strict();
export type EmployeeFilters = z.infer<typeof employeeFiltersSchema>;

/** Which employee an account or an address names, in one company. */
export const employeeResolveQuerySchema = z
  .object({
    /** `CORP\jdoe`, `jdoe@corp.example` or `jdoe`. */
    account: z.string().trim().min(1).max(256).optional(),
    email: z.string().trim().min(1).max(254).optional(),
    /** Needed when the caller sees more than one company. */
    company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict()
  .refine((q) => (q.account === undefined) !== (q.email === undefined), {
    message: 'Give either account or email.',
    path: ['account'],
  });

export const employeeResolveAnswerSchema = z.object({ employee: employeeSchema.nullable() });
export type EmployeeResolveAnswer = z.infer<typeof employeeResolveAnswerSchema>;

/** Where imported employees go: the caller's company when nothing is given. */
export const employeeImportTargetSchema = z
  .object({ company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() })
  .strict();

export const employeeImportJsonSchema = employeeImportTargetSchema
  .extend({ csv: z.string({ message: 'Give the CSV text.' }).min(1, 'Give the CSV text.') })
  .strict();

/** Columns of the employee CSV (an Active Directory export's names are read too, see the import). */
export const employeeCsvColumns = [
  'full_name',
  'emails',
  'accounts',
  'department',
  'title',
  'manager',
  'phone',
  'unit',
  'distinguished_name',
] as const;

export const employeeImportRejectionSchema = csvImportRejectionSchema;
export type EmployeeImportRejection = z.infer<typeof employeeImportRejectionSchema>;

export const employeeImportAnswerSchema = csvImportAnswerSchema.extend({
  /** Rows whose Manager named an employee found in the file or the company. */
  managers_linked: z.number().int(),
});
export type EmployeeImportAnswer = z.infer<typeof employeeImportAnswerSchema>;

/** Alerts, malicious mail and sign-ins of an employee: the newest few of each. */
export const employeeActivityQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(200).optional() })
  .strict();

export const employeeAlertSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  severity: z.string(),
  status: z.string(),
  last_seen: z.string(),
  /** The observable that names the employee: an account or an address. */
  matched: z.string(),
});

export const employeeMailSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  sender: z.string().nullable(),
  subject: z.string().nullable(),
  /** The employee's address the message went to. */
  recipient: z.string(),
  /** Alerts raised on the message. */
  alert_ids: z.array(z.number().int()),
});

export const employeeSignInSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  host_name: z.string().nullable(),
  action: z.string().nullable(),
  outcome: z.string().nullable(),
  user_name: z.string().nullable(),
  src_ip: z.string().nullable(),
});

export const employeeActivitySchema = z.object({
  alerts: z.array(employeeAlertSchema),
  malicious_mail: z.array(employeeMailSchema),
  sign_ins: z.array(employeeSignInSchema),
});
export type EmployeeActivity = z.infer<typeof employeeActivitySchema>;
