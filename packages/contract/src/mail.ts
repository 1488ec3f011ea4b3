import { z } from 'zod';
import { messageSchema } from './errors';

/** A mail address as a recipient field accepts it. */
export const mailAddressSchema = z
  .email({ message: 'Enter a valid e-mail address.' })
  .trim()
  .max(254, 'An e-mail address is at most 254 characters.');

/** A subject line: one line, no control characters. */
export const mailSubjectSchema = z
  .string({ message: 'A message needs a subject.' })
  .trim()
  .min(1, 'A message needs a subject.')
  .max(200, 'A subject is at most 200 characters.')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'A subject is one line of text.');

/** Plain-text body. */
export const mailTextSchema = z
  .string({ message: 'The text must be a string.' })
  .trim()
  .max(100_000, 'The text is at most 100,000 characters.');

/** HTML body; the server keeps only a safe subset (no scripts, styles, images or forms). */
export const mailHtmlSchema = z
  .string({ message: 'The HTML must be a string.' })
  .trim()
  .max(500_000, 'The HTML is at most 500,000 characters.');

const id = z
  .number({ message: 'Ids are whole numbers.' })
  .int('Ids are whole numbers.')
  .min(1, 'Ids are whole numbers from 1.')
  .max(Number.MAX_SAFE_INTEGER, 'This id is too large.');

/** A release version, as the release notes files are named: `1.2.3` or `1.2.3-rc.1`. */
export const releaseVersionSchema = z
  .string({ message: 'Choose a version.' })
  .trim()
  .min(1, 'Choose a version.')
  .max(50, 'A version is at most 50 characters.')
  .regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}(-[0-9A-Za-z.-]{1,30})?$/, 'A version looks like 1.2.3.');

/**
 * POST /api/users/send_custom_mail/: a message from an administrator to users it can see.
 * Recipients are any mix of explicit users, whole companies and everybody in scope; each user
 * gets a copy addressed to it alone. At least one of text and html is needed.
 */
export const sendCustomMailSchema = z
  .object({
    subject: mailSubjectSchema,
    /** Plain text; when html is absent the HTML part is made from it. */
    text: mailTextSchema.optional(),
    /** HTML; sanitized. When text is absent the text part is made from it. */
    html: mailHtmlSchema.optional(),
    user_ids: z.array(id, { message: 'A list of user ids.' }).max(10_000, 'At most 10,000 users at once.').optional(),
    company_ids: z
      .array(id, { message: 'A list of company ids.' })
      .max(1_000, 'At most 1,000 companies at once.')
      .optional(),
    /** Every user the caller can see. */
    all_users: z.boolean({ message: 'true or false.' }).optional(),
  })
  .strict()
  .superRefine((value, context) => {
    if (!value.text && !value.html)
      context.addIssue({ code: 'custom', path: ['text'], message: 'Write the message: text, HTML or both.' });
    if (!value.user_ids?.length && !value.company_ids?.length && value.all_users !== true)
      context.addIssue({
        code: 'custom',
        path: ['non_field_errors'],
        message: 'Choose the recipients: users, companies or all users.',
      });
  });
export type SendCustomMail = z.infer<typeof sendCustomMailSchema>;

export const mailSkipReasons = ['archived', 'no_email', 'invalid_email', 'opted_out'] as const;

/** A user who was chosen but gets no mail, and why. */
export const mailSkippedUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  reason: z.enum(mailSkipReasons),
});
export type MailSkippedUser = z.infer<typeof mailSkippedUserSchema>;

/** Answer of the sending endpoints: messages queued (one per user) and users left out. */
export const mailSendAnswerSchema = z.object({
  queued: z.number().int(),
  skipped: z.array(mailSkippedUserSchema),
  messages: z.array(messageSchema),
});
export type MailSendAnswer = z.infer<typeof mailSendAnswerSchema>;

/** One release, as GET /api/users/versions_list/ lists them (newest first). */
export const changelogVersionSchema = z.object({
  version: z.string(),
  title: z.string(),
  /** Release day, YYYY-MM-DD, when the notes give one. */
  date: z.string().nullable(),
});
export type ChangelogVersion = z.infer<typeof changelogVersionSchema>;

export const versionsListAnswerSchema = z.object({ changelog_versions: z.array(changelogVersionSchema) });
export type VersionsListAnswer = z.infer<typeof versionsListAnswerSchema>;

/** POST /api/users/custom_mail_data/release_notes/ */
export const releaseNotesMailDataRequestSchema = z.object({ version: releaseVersionSchema }).strict();

/** A prepared message an administrator can review and edit before sending. */
export const mailDataSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export type MailData = z.infer<typeof mailDataSchema>;

/**
 * POST /api/users/mass_changelog/: release notes to every active user with an e-mail in scope
 * (or in `company_ids`), except those who turned release notes off. subject, text and html
 * default to the prepared release-notes mail; a text or html given replaces both parts.
 */
export const massChangelogSchema = z
  .object({
    version: releaseVersionSchema,
    subject: mailSubjectSchema.optional(),
    text: mailTextSchema.min(1, 'The text cannot be empty.').optional(),
    html: mailHtmlSchema.min(1, 'The HTML cannot be empty.').optional(),
    company_ids: z
      .array(id, { message: 'A list of company ids.' })
      .min(1, 'Choose at least one company, or leave the field out for all.')
      .max(1_000, 'At most 1,000 companies at once.')
      .optional(),
  })
  .strict();
export type MassChangelog = z.infer<typeof massChangelogSchema>;
