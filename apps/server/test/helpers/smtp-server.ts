import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server accepted. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), which include Bcc. */
  envelopeTo: string[];
  envelopeFrom: string | null;
  /** The client's SMTP user, when it authenticated. */
  user: string | null;
  subject: string;
  from: string;
  to: string[];
  cc: string[];
  text: string;
  html: string | null;
  /** Header names present in the message (lower case). */
  headers: string[];
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  /** Messages accepted so far, in order. */
  received: ReceivedMail[];
  /** Refuse the next `count` messages at DATA with this reply (a temporary 451 by default). */
  refuseNext(count: number, responseCode?: number, message?: string): void;
  /** Refuse these recipients at RCPT TO with 550 (mailbox unavailable). */
  rejectRecipient(address: string): void;
  /** Messages refused so far. */
  refusals: number;
  reset(): void;
  close(): Promise<void>;
}

/** The app's environment for sending through this server, from the test sender address. */
export function smtpEnv(smtp: Pick<TestSmtpServer, 'host' | 'port'>): Record<string, string> {
  return { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), MAIL_FROM: 'Vigil <vigil@example.com>' };
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((group) => group.value.map((entry) => entry.address ?? '')).filter((a) => a !== '');
}

function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * A real SMTP server from the `smtp-server` package on a free loopback port, without TLS.
 * With `users`, clients must authenticate with one of them (plain AUTH is allowed, loopback only).
 */
export async function startTestSmtpServer(options: { users?: Record<string, string> } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rejected = new Set<string>();
  let refuse: { count: number; code: number; message: string } = { count: 0, code: 451, message: '' };
  const state = { refusals: 0 };
  const users = options.users;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: users ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !users,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (users && auth.username && users[auth.username] === auth.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(smtpError(535, 'Authentication failed'));
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        callback(smtpError(550, `Mailbox ${address.address} unavailable`));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse.count > 0) {
          refuse.count -= 1;
          state.refusals += 1;
          callback(smtpError(refuse.code, refuse.message));
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              user: typeof session.user === 'string' ? session.user : null,
              subject: parsed.subject ?? '',
              from: parsed.from?.text ?? '',
              to: addresses(parsed.to),
              cc: addresses(parsed.cc),
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : null,
              headers: [...parsed.headers.keys()],
              parsed,
            });
            callback();
          })
          .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      });
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.on('error', reject);
    const listener = server.listen(0, '127.0.0.1', () => {
      const address = listener.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });

  return {
    host: '127.0.0.1',
    port,
    received,
    refuseNext(count, responseCode = 451, message = 'Requested action aborted: local error in processing') {
      refuse = { count, code: responseCode, message };
    },
    rejectRecipient(address) {
      rejected.add(address.toLowerCase());
    },
    get refusals() {
      return state.refusals;
    },
    reset() {
      received.length = 0;
      rejected.clear();
      refuse = { count: 0, code: 451, message: '' };
      state.refusals = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
