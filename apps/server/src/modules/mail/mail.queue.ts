import { mailAddressSchema, mailHtmlSchema, mailSubjectSchema, mailTextSchema } from '@vigil/contract';
import { z } from 'zod';
import type { Queryable } from '../../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/job-runner';
import { enqueueJob, enqueueJobs, type EnqueueOptions } from '../jobs/jobs.queue';
import type { JsonObject } from '../jobs/jobs.repository';
import type { Mailer } from './mail.transport';

/** The job kind that sends one mail message. */
export const MAIL_JOB_KIND = 'mail.send';

const addresses = z.union([mailAddressSchema, z.array(mailAddressSchema).max(100, 'At most 100 addresses.')]);
const someAddresses = z.union([
  mailAddressSchema,
  z.array(mailAddressSchema).min(1, 'At least one address.').max(100, 'At most 100 addresses.'),
]);

/** One message to queue. Every address is checked; the HTML, if any, is sent as given. */
export const mailMessageSchema = z
  .object({
    to: someAddresses,
    cc: addresses.optional(),
    bcc: addresses.optional(),
    subject: mailSubjectSchema,
    text: mailTextSchema,
    html: mailHtmlSchema.optional(),
  })
  .strict()
  .refine(
    (mail) => [mail.to, mail.cc ?? [], mail.bcc ?? []].flat().length <= 100,
    'A message goes to at most 100 addresses.',
  );
export type MailMessage = z.input<typeof mailMessageSchema>;

/** The payload of a mail job as stored. */
const mailPayloadSchema = z.object({
  to: z.array(z.string()).min(1),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
});
type MailPayload = z.infer<typeof mailPayloadSchema>;

/** A message that cannot be sent as given; `problems` names each field. */
export class InvalidMailError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid mail message: ${problems.join('; ')}`);
    this.name = 'InvalidMailError';
  }
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function toPayload(mail: MailMessage): MailPayload {
  const parsed = mailMessageSchema.safeParse(mail);
  if (!parsed.success) {
    throw new InvalidMailError(
      parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'message'}: ${issue.message}`),
    );
  }
  const m = parsed.data;
  return { to: list(m.to), cc: list(m.cc), bcc: list(m.bcc), subject: m.subject, text: m.text, html: m.html ?? null };
}

/**
 * Queues one mail message in the caller's transaction; it is sent after commit by the job runner,
 * retried with back-off when the relay is unavailable. A rolled-back transaction sends nothing.
 * Throws InvalidMailError for a bad address or subject. Returns the job id.
 */
export async function enqueueMail(tx: Queryable, mail: MailMessage, options: EnqueueOptions = {}): Promise<number> {
  return enqueueJob(tx, MAIL_JOB_KIND, toPayload(mail), options);
}

/** Queues many messages (one per recipient, say) in the caller's transaction. Returns how many. */
export async function enqueueMails(
  tx: Queryable,
  mails: readonly MailMessage[],
  options: EnqueueOptions = {},
): Promise<number> {
  return enqueueJobs(tx, MAIL_JOB_KIND, mails.map(toPayload), options);
}

/** The recipients' replies that trying again cannot change: every recipient refused for good. */
function isPermanentRefusal(error: unknown): boolean {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500 && responseCode !== 503;
}

/**
 * The handler of mail jobs: sends the message and, once sent, keeps only its envelope, subject and
 * message id (a body may hold a one-time link that should not outlive its delivery).
 */
export function mailJobHandler(mailer: Mailer): JobHandler {
  return async (payload) => {
    const parsed = mailPayloadSchema.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('The stored message is not a valid mail job payload.');
    const mail = parsed.data;
    let sent;
    try {
      sent = await mailer.send({ ...mail, html: mail.html ?? undefined });
    } catch (error) {
      if (isPermanentRefusal(error)) throw new PermanentJobError((error as Error).message);
      throw error;
    }
    const kept: JsonObject = {
      to: mail.to,
      cc: mail.cc,
      bcc: mail.bcc,
      subject: mail.subject,
      message_id: sent.messageId,
      rejected: sent.rejected,
    };
    return { payload: kept };
  };
}
