/**
 * Mail to users: custom messages and release notes.
 *
 * All mail goes through the job queue: a request checks its input, picks the recipients and queues
 * one message per recipient in one transaction with its audit records, then answers. The job
 * runner sends after commit, outside any transaction, retrying with back-off while the relay is
 * unavailable. Recipients are always limited to the caller's tenant scope (tenantCondition on
 * users.company_id); each user gets a copy addressed to it alone, so no address is disclosed to
 * other recipients.
 *
 * POST /api/users/send_custom_mail/                  permission users/send_custom_mail
 *   {subject, text?, html?, user_ids?, company_ids?, all_users?}
 *   At least one of text/html; at least one kind of recipient. HTML is reduced to a safe subset
 *   (no scripts, styles, images, forms; links http/https/mailto); a missing part is derived from
 *   the other. A user or company id the caller cannot see answers 404 naming it, exactly as for
 *   an id that does not exist, and nothing is queued. Archived users and users without a usable
 *   address are skipped and listed. Custom mail is an administrative message: the release-notes
 *   opt-out does not apply to it.
 *   → 200 {queued, skipped: [{id, username, reason}], messages: [{title, message, type}]}
 *
 * GET /api/users/versions_list/                      any signed-in user
 *   → {changelog_versions: [{version, title, date}]}, newest first, from
 *   docs/release-notes/<version>.md in the repository.
 *
 * POST /api/users/custom_mail_data/release_notes/    permission users/mass_changelog
 *   {version} → {subject, text, html}: the release-notes mail prepared for review and editing.
 *   400 on `version` for a malformed or unknown version.
 *
 * POST /api/users/mass_changelog/                    permission users/mass_changelog
 *   {version, subject?, text?, html?, company_ids?}
 *   Sends the notes (or the administrator's edited subject/text/html) to every active user with
 *   an address in scope, or in `company_ids` within it; deactivated companies and users whose
 *   mailing_setting.release_notes is false are left out (the latter listed as opted_out).
 *   → 200 {queued, skipped, messages}, audited per company as `mass_changelog`.
 */
import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { ValidationError } from '../../http/errors';
import { auditContextOf } from '../audit/audit.service';
import { mailBody } from './mail-content';
import { MAIL_JOB_KIND, mailJobHandler } from './mail.queue';
import { sendCustomMail, sendReleaseNotes } from './mail.service';
import { createSmtpMailer } from './mail.transport';
import { findReleaseNote, listReleaseNotes, releaseNotesDir, releaseNotesMail } from './release-notes';

const blankToUndefined = (value: string | undefined) => (value === '' ? undefined : value);

/** Mail: the mail job handler and the mail endpoints. Needs the job runner (registerJobs) first. */
export async function registerMail(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const api = endpoints.mail;
  const mailer = deps.mailer ?? createSmtpMailer(deps.config);
  app.jobs.register(MAIL_JOB_KIND, mailJobHandler(mailer));
  app.addHook('onClose', async () => {
    mailer.close();
  });
  const notesDir = deps.releaseNotesDir ?? releaseNotesDir;
  const productName = `${deps.config.providerName} Managed XDR`;

  const preparedNotes = async (version: string) => {
    const note = await findReleaseNote(notesDir, version);
    if (!note) throw ValidationError.field('version', `There are no release notes for version ${version}.`);
    return releaseNotesMail(note, productName);
  };

  route(app, api.sendCustom, async ({ request, body: input }) => {
    const actor = requireActor(request);
    const body = mailBody({ text: blankToUndefined(input.text), html: blankToUndefined(input.html) });
    if (body.text === '' && body.html === '')
      throw ValidationError.field('html', 'The HTML has no content left to send.');
    return sendCustomMail(db, actor, auditContextOf(request), {
      userIds: input.user_ids ?? [],
      companyIds: input.company_ids ?? [],
      allUsers: input.all_users === true,
      content: { subject: input.subject, ...body },
    });
  });

  route(app, api.versions, async () => {
    const notes = await listReleaseNotes(notesDir);
    return { changelog_versions: notes.map(({ version, title, date }) => ({ version, title, date })) };
  });

  route(app, api.releaseNotesMailData, async ({ body }) => preparedNotes(body.version));

  route(app, api.massChangelog, async ({ request, body: input }) => {
    const actor = requireActor(request);
    const prepared = await preparedNotes(input.version);
    const edited = input.text !== undefined || input.html !== undefined;
    const body = edited ? mailBody({ text: input.text, html: input.html }) : prepared;
    if (body.text === '' && body.html === '')
      throw ValidationError.field('html', 'The HTML has no content left to send.');
    return sendReleaseNotes(db, actor, auditContextOf(request), {
      version: input.version,
      companyIds: input.company_ids ?? null,
      content: { subject: input.subject ?? prepared.subject, text: body.text, html: body.html },
    });
  });
}
