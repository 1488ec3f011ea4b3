import { businessPdf, type DemoFile } from './files';
import type { Random } from './random';
import { THREATS, type DemoCustomer, type DemoPerson } from './scenario';
import { dayAt, MINUTE, pastMoment } from './timeline';

/**
 * One message as the mail relay hands it over (.eml bytes): the time in its Date header, and when the
 * company's mail server delivered it (its topmost Received header), which is when it was received.
 */
export interface DemoMail {
  at: number;
  receivedAt: number;
  subject: string;
  raw: Buffer;
}

/** Subject of the HTML message with a script, an onerror handler and a remote tracking image. */
export const MALICIOUS_HTML_SUBJECT = 'Your parcel could not be delivered - action required';

interface Address {
  name: string;
  address: string;
}

interface MailPlan {
  at: number;
  from: Address;
  to: Address[];
  cc?: Address[];
  replyTo?: Address;
  subject: string;
  text: string;
  html?: string;
  attachments?: DemoFile[];
  auth: { spf: string; dkim: string; dmarc: string };
  /** Address of the sending server. */
  relayIp: string;
  mailer?: string;
}

function rfc2822(at: number): string {
  return new Date(at).toUTCString().replace('GMT', '+0000');
}

function base64Lines(content: Buffer): string {
  return (content.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** Text with lines no longer than 900 characters (RFC 5322 allows 998). */
function wrapped(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => line.match(/.{1,900}/g) ?? [''])
    .join('\r\n');
}

function addressList(list: Address[]): string {
  return list.map((a) => `"${a.name}" <${a.address}>`).join(', ');
}

/** Builds one customer's mail: everyday correspondence and the phishing of the story. */
export class MailGenerator {
  readonly mails: DemoMail[] = [];

  constructor(
    private readonly random: Random,
    private readonly customer: DemoCustomer,
    private readonly now: number,
    private readonly files: Map<string, DemoFile>,
  ) {}

  private person(account: string): Address {
    const p = this.customer.people.find((x) => x.account === account);
    if (!p) throw new Error(`no person ${account} in ${this.customer.name}`);
    return this.addressOf(p);
  }

  private addressOf(p: DemoPerson): Address {
    return { name: `${p.first} ${p.last}`, address: `${p.account}@${this.customer.mailDomain}` };
  }

  private file(name: string): DemoFile {
    const file = this.files.get(name);
    if (!file) throw new Error(`no file ${name}`);
    return file;
  }

  private build(plan: MailPlan): void {
    const r = this.random;
    const domain = this.customer.mailDomain;
    const senderDomain = plan.from.address.slice(plan.from.address.indexOf('@') + 1);
    const received = plan.at + r.int(2, 40) * 1000;
    const delivered = received + 1000;
    const queueId = r.hex(12).toUpperCase();
    const mixed = `----=_Part_${r.int(100000, 999999)}_${r.hex(8)}`;
    const alternative = `----=_Alt_${r.hex(12)}`;
    const lines = [
      `Return-Path: <bounce-${r.hex(6)}@${senderDomain}>`,
      `Delivered-To: ${plan.to[0]!.address}`,
      `Received: from mx1.${domain} (mx1.${domain} [${this.customer.netPrefix}.0.25])`,
      `\tby mail.${domain} (Postfix) with ESMTPS id ${queueId}`,
      `\tfor <${plan.to[0]!.address}>; ${rfc2822(delivered)}`,
      `Authentication-Results: mx1.${domain};`,
      `\tspf=${plan.auth.spf} smtp.mailfrom=${senderDomain};`,
      `\tdkim=${plan.auth.dkim} header.d=${senderDomain} header.s=s${r.int(1, 3)};`,
      `\tdmarc=${plan.auth.dmarc} header.from=${senderDomain}`,
      `Received-SPF: ${plan.auth.spf} (mx1.${domain}: domain of ${senderDomain} designates ${plan.relayIp} as ${plan.auth.spf === 'pass' ? 'permitted' : 'not permitted'} sender)`,
      `Received: from mail.${senderDomain} (mail.${senderDomain} [${plan.relayIp}])`,
      `\tby mx1.${domain} with ESMTPS id ${r.hex(10).toUpperCase()}; ${rfc2822(received)}`,
      `Date: ${rfc2822(plan.at)}`,
      `From: "${plan.from.name}" <${plan.from.address}>`,
      `To: ${addressList(plan.to)}`,
      ...(plan.cc?.length ? [`Cc: ${addressList(plan.cc)}`] : []),
      ...(plan.replyTo ? [`Reply-To: ${plan.replyTo.address}`] : []),
      `Subject: ${plan.subject}`,
      `Message-ID: <${r.hex(16)}.${r.hex(8)}@${senderDomain}>`,
      ...(plan.mailer ? [`X-Mailer: ${plan.mailer}`] : []),
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${mixed}"`,
      '',
      'This is a multi-part message in MIME format.',
      `--${mixed}`,
      `Content-Type: multipart/alternative; boundary="${alternative}"`,
      '',
      `--${alternative}`,
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      wrapped(plan.text),
      ...(plan.html
        ? [
            `--${alternative}`,
            'Content-Type: text/html; charset=utf-8',
            'Content-Transfer-Encoding: 8bit',
            '',
            wrapped(plan.html),
          ]
        : []),
      `--${alternative}--`,
    ];
    for (const file of plan.attachments ?? []) {
      lines.push(
        `--${mixed}`,
        `Content-Type: ${file.contentType}; name="${file.name}"`,
        `Content-Disposition: attachment; filename="${file.name}"`,
        'Content-Transfer-Encoding: base64',
        '',
        base64Lines(file.content),
      );
    }
    lines.push(`--${mixed}--`, '');
    this.mails.push({
      at: plan.at,
      receivedAt: delivered,
      subject: plan.subject,
      raw: Buffer.from(lines.join('\r\n'), 'utf8'),
    });
  }

  /** Everyday mail until `count` messages exist (the story's messages count too). */
  background(count: number): void {
    const staff = this.customer.people;
    const topics =
      this.customer.key === 'northwind'
        ? [
            'Q4 freight rates for the Baltic lane',
            'Depot staffing next week',
            'Minutes from the Monday operations call',
            'Forklift maintenance schedule',
            'Customs paperwork for shipment RTM-4471',
            'Updated delivery windows for Hamburg',
            'Fuel surcharge for December',
            'Warehouse inventory count on Friday',
          ]
        : [
            'Reception rota for next week',
            'Lab analyser calibration on Thursday',
            'Insurance claim batch for November',
            'PACS maintenance window on Saturday night',
            'Supplies order: reagents and gloves',
            'Staff training on the new booking system',
            'Cardiology referrals: scheduling',
            'Fire drill on Wednesday at 10:00',
          ];
    while (this.mails.length < count) {
      const at = pastMoment(this.random, this.now);
      const sender = this.random.pick(staff);
      const recipient = this.random.pick(staff.filter((p) => p !== sender));
      const topic = this.random.pick(topics);
      if (this.random.chance(0.55)) {
        const reply = this.random.chance(0.4);
        this.build({
          at,
          from: this.addressOf(sender),
          to: [this.addressOf(recipient)],
          ...(this.random.chance(0.3) ? { cc: [this.addressOf(this.random.pick(staff))] } : {}),
          subject: reply ? `RE: ${topic}` : topic,
          text: `Hi ${recipient.first},\n\n${this.sentence(topic)}\n\nThanks,\n${sender.first}\n\n-- \n${sender.first} ${sender.last}\n${sender.unit}, ${this.customer.name}`,
          html: `<p>Hi ${recipient.first},</p><p>${this.sentence(topic)}</p><p>Thanks,<br>${sender.first}</p>`,
          auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
          relayIp: `${this.customer.netPrefix}.0.26`,
          mailer: 'Microsoft Outlook 16.0',
        });
      } else {
        const partner = this.random.pick(this.customer.partners);
        const number = `${new Date(at).getUTCFullYear()}-${String(this.random.int(1000, 9999))}`;
        const withInvoice = this.random.chance(0.45);
        this.build({
          at,
          from: partner,
          to: [this.addressOf(recipient)],
          subject: withInvoice ? `Invoice ${number} from ${partner.name}` : `${topic} - ${partner.name}`,
          text: withInvoice
            ? `Dear ${recipient.first} ${recipient.last},\n\nplease find attached invoice ${number}. Payment terms: 30 days net.\n\nKind regards,\n${partner.name}`
            : `Dear ${recipient.first},\n\n${this.sentence(topic)}\n\nBest regards,\n${partner.name}`,
          html: withInvoice
            ? `<p>Dear ${recipient.first} ${recipient.last},</p><p>please find attached invoice <b>${number}</b>. Payment terms: 30 days net.</p><p>Kind regards,<br>${partner.name}</p>`
            : `<p>Dear ${recipient.first},</p><p>${this.sentence(topic)}</p><p>Best regards,<br>${partner.name}</p>`,
          ...(withInvoice
            ? {
                attachments: [
                  businessPdf(this.random, `Invoice_${number}.pdf`, [
                    partner.name,
                    `Invoice ${number}`,
                    `Bill to: ${this.customer.name}`,
                    `Amount due: EUR ${this.random.int(300, 25000)}.${String(this.random.int(0, 99)).padStart(2, '0')}`,
                  ]),
                ],
              }
            : {}),
          auth: this.random.chance(0.9)
            ? { spf: 'pass', dkim: 'pass', dmarc: 'pass' }
            : { spf: 'softfail', dkim: 'pass', dmarc: 'pass' },
          relayIp: `${this.random.pick(['40.107', '52.100', '209.85'])}.${this.random.int(0, 255)}.${this.random.int(1, 254)}`,
        });
      }
    }
  }

  private sentence(topic: string): string {
    return this.random.pick([
      `Following up on "${topic.toLowerCase()}": the figures are in the shared folder, could you check them before Thursday?`,
      `About ${topic.toLowerCase()} - we agreed to keep the current plan; let me know if anything changes on your side.`,
      `Quick note on ${topic.toLowerCase()}: I've updated the document and left comments where I need your input.`,
      `Regarding ${topic.toLowerCase()}, the details are confirmed. I'll send the final version tomorrow morning.`,
    ]);
  }

  /** The phishing of the story (sent before the everyday mail fills the count). */
  scenario(): void {
    if (this.customer.key === 'northwind') this.northwind();
    else this.aurora();
  }

  private northwind(): void {
    const miller = this.person('j.miller');
    this.build({
      at: dayAt(this.now, 3, 9, 9),
      from: { name: 'Northwind Accounts Payable', address: `accounts.payable@${this.customer.lookalike}` },
      to: [miller],
      replyTo: { name: 'Accounts Payable', address: 'ap.northwind.finance@gmail.com' },
      subject: 'RE: Overdue invoice INV-88231 - second reminder',
      text: `Hello James,\n\nthe attached invoice INV-88231 is now 21 days overdue. Please open it and enable editing to see the payment details, and confirm the transfer today.\n\nRegards,\nAccounts Payable\nNorthwind Logistics`,
      html: `<p>Hello James,</p><p>the attached invoice <b>INV-88231</b> is now 21 days overdue. Please open it and <b>enable editing</b> to see the payment details, and confirm the transfer today.</p><p>Regards,<br>Accounts Payable<br>Northwind Logistics</p>`,
      attachments: [this.file('Invoice_INV-88231.doc')],
      auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
      relayIp: '203.0.113.12',
      mailer: 'PHPMailer 6.8.1',
    });
    const costa = this.person('m.costa');
    const link = `http://${THREATS.phishDomain}${THREATS.phishUrlPath}?parcel=JD0146${this.random.int(100000, 999999)}`;
    this.build({
      at: dayAt(this.now, 1, 11, 40),
      from: { name: 'DHL Express', address: 'noreply@dhl-parcel-notice.top' },
      to: [costa],
      subject: MALICIOUS_HTML_SUBJECT,
      text: `Dear customer,\n\nyour parcel could not be delivered because of an unpaid customs fee (EUR 1.99).\nConfirm your details within 24 hours: ${link}\n\nDHL Express`,
      html: [
        '<!DOCTYPE html><html><head><title>DHL Express</title>',
        "<script>document.title='pwned';window.parent.postMessage({pwned:true},'*');</script>",
        '</head><body style="font-family:Arial,sans-serif">',
        `<img src="http://${THREATS.tracker}/open.gif?id=${this.random.hex(16)}" width="1" height="1" alt="">`,
        '<img src="cid:logo-missing" alt="DHL" onerror="document.title=\'pwned\';fetch(\'http://tracker.example/onerror\')">',
        '<p>Dear customer,</p>',
        '<p>your parcel could not be delivered because of an unpaid customs fee (EUR 1.99).</p>',
        `<p><a href="${link}" style="background:#d40511;color:#fff;padding:8px 16px">Pay and reschedule delivery</a></p>`,
        '<p>DHL Express</p></body></html>',
      ].join('\n'),
      auth: { spf: 'fail', dkim: 'none', dmarc: 'fail' },
      relayIp: '192.0.2.160',
      mailer: 'Microsoft CDO for Windows 2000',
    });
    for (const daysAgo of [12, 7, 2]) {
      const to = this.addressOf(this.random.pick(this.customer.people));
      this.build({
        at: dayAt(this.now, daysAgo, 6, 15),
        from: { name: 'Freight Rates Weekly', address: 'offers@freight-rates-weekly.biz' },
        to: [to],
        subject: 'Spot rates DOWN 40% - book your containers now!!!',
        text: `Hello ${to.name},\n\nthis week only: container spot rates from Asia at 40% off. Reply to book.\n\nTo unsubscribe reply STOP.`,
        auth: { spf: 'pass', dkim: 'none', dmarc: 'none' },
        relayIp: '198.51.100.140',
      });
    }
  }

  private aurora(): void {
    const lab = [this.person('d.reyes'), this.person('o.ivanova')];
    this.build({
      at: dayAt(this.now, 2, 10, 20),
      from: { name: 'Aurora Clinic Laboratory', address: `results@${this.customer.lookalike}` },
      to: lab,
      subject: 'Lab results 2291 ready for review',
      text: `Hello,\n\nthe results for order 2291 are attached. The viewer opens them directly.\n\nAurora Clinic Laboratory`,
      html: `<p>Hello,</p><p>the results for order <b>2291</b> are attached. The viewer opens them directly.</p><p>Aurora Clinic Laboratory</p>`,
      attachments: [this.file('Lab_Results_2291.pdf.exe')],
      auth: { spf: 'pass', dkim: 'none', dmarc: 'none' },
      relayIp: '198.51.100.77',
      mailer: 'PHPMailer 6.8.1',
    });
    const admin = [this.person('s.adeyemi'), this.person('c.dubois')];
    const link = `http://${THREATS.phishDomain}${THREATS.phishUrlPath}?u=s.adeyemi`;
    this.build({
      at: dayAt(this.now, 4, 14, 50),
      from: { name: 'IT Helpdesk', address: 'helpdesk@mailbox-quota-alerts.com' },
      to: admin,
      subject: 'Mailbox storage 98% full - verify your account',
      text: `Your mailbox is almost full and will stop receiving mail.\nVerify your account to get 50 GB more: ${link}\n\nIT Helpdesk`,
      html: `<p>Your mailbox is almost full and will stop receiving mail.</p><p><a href="${link}">Verify your account</a> to get 50 GB more.</p><p>IT Helpdesk</p>`,
      auth: { spf: 'fail', dkim: 'fail', dmarc: 'fail' },
      relayIp: '192.0.2.161',
    });
    const reyes = this.person('d.reyes');
    this.build({
      at: dayAt(this.now, 2, 10, 20) + 30 * MINUTE,
      from: reyes,
      to: [this.person('y.kaya')],
      subject: 'FW: Lab results 2291 ready for review',
      text: `Yusuf,\n\nthis came from "results@${this.customer.lookalike}" - not our domain. Olga already opened it. Can you look?\n\nDaniel`,
      auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
      relayIp: `${this.customer.netPrefix}.0.26`,
      mailer: 'Microsoft Outlook 16.0',
    });
  }
}
