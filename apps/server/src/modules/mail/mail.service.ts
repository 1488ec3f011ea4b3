import { mailAddressSchema, type MailSendAnswer, type MailSkippedUser } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { HttpError } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { enqueueMails } from './mail.queue';
import { findCompaniesInScope, findUsersInScope, usersOfCompanies, type RecipientRow } from './mail.repository';

/** The message every chosen user gets, each in its own copy. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Selection {
  recipients: (RecipientRow & { email: string })[];
  skipped: MailSkippedUser[];
}

/** Splits users into those who get the mail and those left out, with the reason. */
function select(
  rows: readonly RecipientRow[],
  options: { reportArchived: boolean; respectReleaseNotesOptOut: boolean },
): Selection {
  const selection: Selection = { recipients: [], skipped: [] };
  const skip = (row: RecipientRow, reason: MailSkippedUser['reason']) =>
    selection.skipped.push({ id: row.id, username: row.username, reason });
  for (const row of rows) {
    if (row.archived) {
      if (options.reportArchived) skip(row, 'archived');
    } else if (!row.email?.trim()) skip(row, 'no_email');
    else if (!mailAddressSchema.safeParse(row.email).success) skip(row, 'invalid_email');
    else if (options.respectReleaseNotesOptOut && row.release_notes_off) skip(row, 'opted_out');
    else selection.recipients.push({ ...row, email: row.email.trim() });
  }
  return selection;
}

/** 404 naming the ids the caller cannot see; unknown and other tenants' ids read the same. */
function unknownIds(what: 'user' | 'company', ids: readonly number[]): HttpError {
  const noun = what === 'user' ? (ids.length === 1 ? 'user' : 'users') : ids.length === 1 ? 'company' : 'companies';
  return new HttpError(404, `No ${noun} with id ${ids.join(', ')}.`, 'not_found');
}

function missing(wanted: readonly number[], found: Iterable<number>): number[] {
  const present = new Set(found);
  return [...new Set(wanted)].filter((id) => !present.has(id));
}

/**
 * Queues one copy of `content` per recipient and writes one audit record per company whose users
 * receive it, all in one transaction: either everything is queued and recorded, or nothing.
 */
async function queue(
  db: Database,
  audit: AuditContext,
  selection: Selection,
  content: MailContent,
  record: { action: string; objectType: string; objectId: string | null },
): Promise<MailSendAnswer> {
  await db.transaction(async (tx) => {
    await enqueueMails(
      tx,
      selection.recipients.map((user) => ({
        to: user.email,
        subject: content.subject,
        text: content.text,
        ...(content.html ? { html: content.html } : {}),
      })),
    );
    const byCompany = new Map<number, string[]>();
    for (const user of selection.recipients) {
      byCompany.set(user.company_id, [...(byCompany.get(user.company_id) ?? []), user.username]);
    }
    for (const [companyId, usernames] of byCompany) {
      await recordAudit(tx, audit, {
        action: record.action,
        objectType: record.objectType,
        objectId: record.objectId,
        objectRepr: content.subject,
        companyId,
        after: { subject: content.subject, recipients: usernames },
      });
    }
  });
  const queued = selection.recipients.length;
  const skipped = selection.skipped.length;
  const skippedText = skipped === 0 ? '' : ` ${skipped} ${skipped === 1 ? 'user was' : 'users were'} skipped.`;
  return {
    queued,
    skipped: selection.skipped,
    messages: [
      queued > 0
        ? {
            title: 'Mail queued',
            message: `${queued} ${queued === 1 ? 'message is' : 'messages are'} queued for sending.${skippedText}`,
            type: 'success',
          }
        : {
            title: 'No mail sent',
            message: `None of the chosen users can receive mail.${skippedText}`,
            type: 'warning',
          },
    ],
  };
}

/**
 * A custom message to explicit users, whole companies and/or everybody the caller can see.
 * Ids outside the caller's scope answer 404, as if they did not exist. Archived users and users
 * without a usable address are skipped and reported. Each user gets its own copy.
 */
export async function sendCustomMail(
  db: Database,
  actor: Actor,
  audit: AuditContext,
  request: { userIds: readonly number[]; companyIds: readonly number[]; allUsers: boolean; content: MailContent },
): Promise<MailSendAnswer> {
  const explicit = await findUsersInScope(db, actor.scope, request.userIds);
  const unknownUsers = missing(
    request.userIds,
    explicit.map((row) => row.id),
  );
  if (unknownUsers.length > 0) throw unknownIds('user', unknownUsers);
  const companies = await findCompaniesInScope(db, actor.scope, request.companyIds);
  const unknownCompanies = missing(request.companyIds, companies);
  if (unknownCompanies.length > 0) throw unknownIds('company', unknownCompanies);

  const chosen = new Map<number, RecipientRow>();
  for (const row of explicit) chosen.set(row.id, row);
  if (request.allUsers) {
    for (const row of await usersOfCompanies(db, actor.scope, 'all')) chosen.set(row.id, row);
  } else if (companies.length > 0) {
    for (const row of await usersOfCompanies(db, actor.scope, companies)) chosen.set(row.id, row);
  }
  const rows = [...chosen.values()].sort((a, b) => a.id - b.id);
  const selection = select(rows, { reportArchived: true, respectReleaseNotesOptOut: false });
  return queue(db, audit, selection, request.content, {
    action: 'send_custom_mail',
    objectType: 'mail',
    objectId: null,
  });
}

/**
 * Release notes to every active user with an address in the caller's scope (or in `companyIds`
 * within it), leaving out deactivated companies and users who turned release notes off.
 */
export async function sendReleaseNotes(
  db: Database,
  actor: Actor,
  audit: AuditContext,
  request: { version: string; companyIds: readonly number[] | null; content: MailContent },
): Promise<MailSendAnswer> {
  let companies: readonly number[] | 'all' = 'all';
  if (request.companyIds) {
    const visible = await findCompaniesInScope(db, actor.scope, request.companyIds);
    const unknownCompanies = missing(request.companyIds, visible);
    if (unknownCompanies.length > 0) throw unknownIds('company', unknownCompanies);
    companies = visible;
  }
  const rows = await usersOfCompanies(db, actor.scope, companies, { activeCompaniesOnly: true });
  const selection = select(rows, { reportArchived: false, respectReleaseNotesOptOut: true });
  return queue(db, audit, selection, request.content, {
    action: 'mass_changelog',
    objectType: 'release_notes',
    objectId: request.version,
  });
}
