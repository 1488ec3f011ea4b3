import { endpoint, permission, signedIn } from '../endpoint';
import {
  mailDataSchema,
  mailSendAnswerSchema,
  massChangelogSchema,
  releaseNotesMailDataRequestSchema,
  sendCustomMailSchema,
  versionsListAnswerSchema,
} from '../mail';

/** Mail to users: custom messages and release notes, queued one copy per recipient. */
const tag = 'mail';

export const mailEndpoints = {
  sendCustom: endpoint({
    method: 'POST',
    path: '/api/users/send_custom_mail/',
    summary: 'Send a custom mail to users',
    description:
      'Queues one copy per recipient: the users named, the users of the companies named, or everybody in the ' +
      'caller’s scope. HTML is reduced to a safe subset; a missing text or HTML part is derived from the other. ' +
      'Archived users and users without a usable address are skipped and listed.',
    tag,
    access: permission('users', 'send_custom_mail'),
    body: sendCustomMailSchema,
    responses: { 200: mailSendAnswerSchema },
  }),
  versions: endpoint({
    method: 'GET',
    path: '/api/users/versions_list/',
    summary: 'List released versions',
    description: 'The versions that have release notes, newest first.',
    tag,
    access: signedIn,
    responses: { 200: versionsListAnswerSchema },
  }),
  releaseNotesMailData: endpoint({
    method: 'POST',
    path: '/api/users/custom_mail_data/release_notes/',
    summary: 'Prepare the release-notes mail',
    description: 'The release-notes mail of a version, for review and editing before it is sent.',
    tag,
    access: permission('users', 'mass_changelog'),
    body: releaseNotesMailDataRequestSchema,
    responses: { 200: mailDataSchema },
  }),
  massChangelog: endpoint({
    method: 'POST',
    path: '/api/users/mass_changelog/',
    summary: 'Send the release notes to users',
    description:
      'To every active user with an address in scope (or in `company_ids` within it), leaving out deactivated ' +
      'companies and users who turned release notes off.',
    tag,
    access: permission('users', 'mass_changelog'),
    body: massChangelogSchema,
    responses: { 200: mailSendAnswerSchema },
  }),
};
