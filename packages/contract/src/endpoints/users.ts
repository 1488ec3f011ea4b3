import { z } from 'zod';
import { endpoint, idParams, listEndpoints, permission, signedIn } from '../endpoint';
import { countAnswerSchema, listAnswerSchema, listQuerySchema } from '../list';
import { systemLogDefaultOrdering, systemLogFiltersSchema, systemLogOrderings, systemLogSchema } from '../system-logs';
import {
  currentUserSchema,
  idsSchema,
  privilegedSettingsSchema,
  profileUpdateSchema,
  userCreatedSchema,
  userCreateSchema,
  userFiltersSchema,
  userRefSchema,
  usersAllAnswerSchema,
  usersBatchAnswerSchema,
  userSchema,
  userUpdateSchema,
} from '../users';

/** Users are administered with the `users` permissions. */
const users = (action: string) => permission('users', action);
const tag = 'users';

/** Path parameter `user`: the id of the user a timeline is about. */
const userParams = z.object({ user: idParams.shape.id });

/** One of the two timelines of a user: the system log narrowed to that user, newest first. */
const timeline = (path: string, summary: string, description: string) =>
  endpoint({
    method: 'POST',
    path,
    summary,
    description,
    tag,
    access: users('view'),
    params: userParams,
    query: listQuerySchema,
    body: systemLogFiltersSchema,
    responses: { 200: listAnswerSchema(systemLogSchema) },
    listShape: {
      basename: 'users',
      orderings: systemLogOrderings,
      defaultOrdering: systemLogDefaultOrdering,
      filters: systemLogFiltersSchema,
    },
  });

const profileChange = {
  summary: 'Change the signed-in user’s profile',
  description: 'Changes the caller’s own profile fields and answers the whole current user.',
  tag,
  access: signedIn,
  body: profileUpdateSchema,
  responses: { 200: currentUserSchema },
} as const;

export const userEndpoints = {
  ...listEndpoints({
    base: '/api/users/',
    tag,
    noun: 'user',
    item: userSchema,
    filters: userFiltersSchema,
    access: users('view'),
    orderings: ['username', 'first_name', 'last_name', 'email', 'company', 'created_at', 'last_login_at', 'id'],
    defaultOrdering: ['username'],
  }),
  me: endpoint({
    method: 'GET',
    path: '/api/users/me/',
    summary: 'Read the signed-in user',
    description: 'Everything the console needs about the signed-in user, also before two-factor sign-in is complete.',
    tag,
    access: signedIn,
    reducedApp: true,
    responses: { 200: currentUserSchema },
  }),
  replaceMe: endpoint({ method: 'PUT', path: '/api/users/me/', ...profileChange }),
  updateMe: endpoint({ method: 'PATCH', path: '/api/users/me/', ...profileChange }),
  activeCount: endpoint({
    method: 'GET',
    path: '/api/users/count/',
    summary: 'Count active users',
    description: 'How many users in the caller’s scope are not archived.',
    tag,
    access: users('view'),
    responses: { 200: countAnswerSchema },
  }),
  available: endpoint({
    method: 'GET',
    path: '/api/users/available/',
    summary: 'List users for pickers',
    description: 'Active users in the caller’s scope (at most 5,000), by name, for assignee and recipient pickers.',
    tag,
    access: signedIn,
    responses: { 200: z.array(userRefSchema) },
  }),
  all: endpoint({
    method: 'GET',
    path: '/api/users/all/',
    summary: 'List every user',
    description: 'Every user in the caller’s scope, archived ones included, unpaged (at most 10,000).',
    tag,
    access: users('view'),
    responses: { 200: usersAllAnswerSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/users/:id/',
    summary: 'Read a user',
    tag,
    access: users('view'),
    params: idParams,
    responses: { 200: userSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/users/',
    summary: 'Create a user',
    description:
      'In the caller’s own company unless `company_id` names another company in the caller’s scope. Without a ' +
      'password the answer carries an activation link (also mailed to the user when it has an address).',
    tag,
    access: users('add'),
    body: userCreateSchema,
    responses: { 201: userCreatedSchema },
  }),
  replace: endpoint({
    method: 'PUT',
    path: '/api/users/:id/',
    summary: 'Change a user',
    tag,
    access: users('change'),
    params: idParams,
    body: userUpdateSchema,
    responses: { 200: userSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/users/:id/',
    summary: 'Change some fields of a user',
    tag,
    access: users('change'),
    params: idParams,
    body: userUpdateSchema,
    responses: { 200: userSchema },
  }),
  archive: endpoint({
    method: 'DELETE',
    path: '/api/users/',
    summary: 'Archive users',
    description: 'Archives the users named by `ids`, ending their sessions and revoking their API tokens.',
    tag,
    access: users('delete'),
    body: idsSchema,
    responses: { 200: usersBatchAnswerSchema },
  }),
  restore: endpoint({
    method: 'POST',
    path: '/api/users/restore/',
    summary: 'Restore archived users',
    tag,
    access: users('restore'),
    body: idsSchema,
    responses: { 200: usersBatchAnswerSchema },
  }),
  changePrivilegedSettings: endpoint({
    method: 'POST',
    path: '/api/users/:id/change_privileged_settings/',
    summary: 'Set a user’s privileged flags',
    description: 'The object lists the flags that are on; a flag left out (or false) is off.',
    tag,
    access: users('change_privileged_settings'),
    params: idParams,
    body: privilegedSettingsSchema,
    responses: { 200: userSchema },
  }),
  timeline: timeline(
    '/api/users/:user/timeline/check/',
    'List changes made to a user',
    'The system log records about this user, newest first.',
  ),
  actionsTimeline: timeline(
    '/api/users/:user/user_logs_timeline/check/',
    'List actions a user took',
    'The system log records of what this user did, newest first.',
  ),
};
