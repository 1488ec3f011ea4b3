import { createHash } from 'node:crypto';
import { MAX_EVENT_STRING, mailMessageSchema } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { manyAttachmentsMessage, PHISH_ATTACHMENTS, phishingMessage } from './fixtures/mail';
import {
  HARVEST_FORM_TARGET,
  htmlAttachmentsMessage,
  linkPageUrls,
  longBodiesMessage,
  microsoftAuthenticationMessage,
  oddHeadersMessage,
  splitAuthenticationMessage,
} from './fixtures/mail-cases';
import { parseMail, type ParsedMailMessage } from './mail';

async function parsed(raw: Buffer | string, options?: Parameters<typeof parseMail>[1]): Promise<ParsedMailMessage> {
  const result = await parseMail(typeof raw === 'string' ? Buffer.from(raw) : raw, options);
  if (!result.ok) throw new Error(`expected a message, got ${result.reason}`);
  // Without the bytes, the message is what the contract describes.
  const { attachments, ...rest } = result.message;
  mailMessageSchema.parse({ ...rest, attachments: attachments.map(({ content: _content, ...meta }) => meta) });
  return result.message;
}

async function refused(raw: Buffer | string, options?: Parameters<typeof parseMail>[1]): Promise<string> {
  const result = await parseMail(typeof raw === 'string' ? Buffer.from(raw) : raw, options);
  if (result.ok) throw new Error('expected a refusal');
  return result.reason;
}

const digest = (algorithm: string, content: Buffer) => createHash(algorithm).update(content).digest('hex');

describe('parseMail', () => {
  it('reads a multipart phishing message: headers, addresses, bodies, URLs, three attachments', async () => {
    const raw = phishingMessage();
    const message = await parsed(raw);
    expect(message).toMatchObject({
      message_id: '<20240312140150.7721@mailer.example-phish.com>',
      date: '2024-03-12T14:01:50.000Z',
      from: { address: 'security@example-bank.com', name: 'Example Bank Security' },
      to: [
        { address: 'j.doe@corp.example', name: 'Doe, John' },
        { address: 'finance@corp.example', name: null },
      ],
      cc: [
        { address: 'audit1@corp.example', name: null },
        { address: 'audit2@corp.example', name: null },
      ],
      reply_to: [{ address: 'support@example-phish.com', name: null }],
      subject: 'Проверка счёта - action required',
      size: raw.length,
    });
    expect(message.text).toBe(
      'Dear customer,\nYour account is locked. Verify at https://login.example-phish.com/verify?u=7721&t=9 within 24 hours (or www.example-phish.net/help).\n',
    );
    expect(message.html).toContain('<a href="https://login.example-phish.com/verify?u=7721&amp;t=9">Verify now</a>');
    expect(message.headers).toEqual({
      received: [
        'from mx.corp.example (mx.corp.example [192.0.2.25]) by mail.corp.example (Postfix) with ESMTPS id 4TqP2x0Q3Mz9rwK for <j.doe@corp.example>; Tue, 12 Mar 2024 14:01:59 +0000 (UTC)',
        'from relay.example.net (relay.example.net [203.0.113.9]) by mx.corp.example with ESMTP id 9A1B2C; Tue, 12 Mar 2024 14:01:58 +0000',
        'from [198.51.100.77] (unknown [198.51.100.77]) by relay.example.net; Tue, 12 Mar 2024 14:01:55 +0000',
      ],
      return_path: 'bounce+7721@mailer.example-phish.com',
      x_mailer: 'PHPMailer 6.8.1 (https://github.com/PHPMailer/PHPMailer)',
      spf: 'softfail',
      dkim: 'pass',
      dmarc: 'fail',
      arc: null,
      compauth: null,
      authentication_results: [
        expect.stringMatching(/^mx\.corp\.example; spf=softfail/),
        'relay.example.net; spf=pass smtp.mailfrom=example-phish.com',
      ],
    });
    expect(message.urls).toEqual([
      'https://login.example-phish.com/verify?u=7721&t=9',
      'http://www.example-phish.net/help',
      'http://track.example-phish.com/o.gif?id=7721',
    ]);

    const { pe, pdf, docx } = PHISH_ATTACHMENTS;
    expect(message.attachments.map(({ content: _content, ...meta }) => meta)).toEqual(
      [
        ['Statement_0312.pdf.exe', 'application/octet-stream', pe, 'pe'],
        ['Invoice.pdf', 'application/pdf', pdf, 'pdf'],
        ['Reçu.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx, 'ooxml'],
      ].map(([filename, contentType, content, type]) => ({
        filename,
        content_type: contentType,
        size: (content as Buffer).length,
        md5: digest('md5', content as Buffer),
        sha1: digest('sha1', content as Buffer),
        sha256: digest('sha256', content as Buffer),
        detected_type: type,
        inline: false,
        double_extension: filename === 'Statement_0312.pdf.exe',
        urls: [],
      })),
    );
    expect(message.attachments.map((a) => a.content)).toEqual([pe, pdf, docx]);
    expect(message.text_truncated).toBe(false);
    expect(message.html_truncated).toBe(false);
    // The original is the bytes as they came; every header is listed in order.
    expect(message.original.equals(raw)).toBe(true);
    expect(message.header_lines.map((h) => h.name)).toEqual([
      'Return-Path',
      'Delivered-To',
      'Received',
      'Authentication-Results',
      'Authentication-Results',
      'Received',
      'Received',
      'From',
      'Reply-To',
      'To',
      'Cc',
      'Subject',
      'Date',
      'Message-ID',
      'X-Mailer',
      'MIME-Version',
      'Content-Type',
    ]);
    expect(message.header_lines[11]).toEqual({
      name: 'Subject',
      value: '=?UTF-8?B?0J/RgNC+0LLQtdGA0LrQsCDRgdGH0ZHRgtCw?= - action required',
    });
  });

  it('keeps 200 attachments, each with its own hashes', async () => {
    const message = await parsed(manyAttachmentsMessage(200));
    expect(message.subject).toBe('200 scans');
    expect(message.attachments).toHaveLength(200);
    expect(message.attachments.map((a) => a.filename)).toEqual(Array.from({ length: 200 }, (_, i) => `scan-${i}.txt`));
    expect(new Set(message.attachments.map((a) => a.sha256)).size).toBe(200);
    expect(message.attachments[7]?.content.toString()).toBe('scan number 7\n');
    expect(message.text).toBe('200 files attached.');
  });

  it('refuses more attachments than the limit, and more MIME parts than it reads', async () => {
    expect(await refused(manyAttachmentsMessage(200), { maxAttachments: 100 })).toBe(
      'the message has 200 attachments, over the limit of 100',
    );
    expect(await refused(manyAttachmentsMessage(501))).toBe('the message has 501 attachments, over the limit of 500');
    expect(await refused(manyAttachmentsMessage(1100))).toBe('the message has more than 1,010 MIME parts');
  });

  it('refuses what is empty, too large or not a message', async () => {
    expect(await refused(Buffer.alloc(0))).toBe('the message is empty');
    expect(await refused('\r\n \r\n')).toBe('the message is empty');
    expect(await refused(phishingMessage(), { maxBytes: 1000 })).toBe(
      `the message is ${phishingMessage().length.toLocaleString('en-US')} bytes, over the limit of 1,000 bytes`,
    );
    expect(await refused(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x0a, 0x0d]))).toMatch(
      /^not an RFC 5322 message/,
    );
    expect(await refused('just some text\nover two lines')).toMatch(/^not an RFC 5322 message/);
  });

  it('leaves out a date it cannot read rather than using the time of parsing', async () => {
    const message = await parsed('From: a@example.com\r\nDate: someday soon\r\nSubject: s\r\n\r\nbody');
    expect(message.date).toBeNull();
    expect((await parsed('From: a@example.com\r\nSubject: s\r\n\r\nbody')).date).toBeNull();
  });

  it('falls back to Received-SPF, marks inline parts, keeps cid: links, replaces NUL', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const message = await parsed(
      [
        'Received-SPF: Pass (mailfrom) identity=mailfrom; client-ip=192.0.2.1',
        'From: "News" <news@example.com>',
        'To: undisclosed-recipients:;',
        'Subject: =?UTF-8?Q?nul=00here?=',
        'Content-Type: multipart/related; boundary="r"',
        '',
        '--r',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Hi<img src="cid:logo@example.com"></p>',
        '--r',
        'Content-Type: image/png',
        'Content-ID: <logo@example.com>',
        'Content-Disposition: inline; filename="logo.png"',
        'Content-Transfer-Encoding: base64',
        '',
        png.toString('base64'),
        '--r--',
        '',
      ].join('\r\n'),
    );
    expect(message.headers).toMatchObject({ spf: 'pass', dkim: null, dmarc: null });
    expect(message.to).toEqual([]);
    expect(message.subject).toBe('nul\uFFFDhere');
    expect(message.text).toBeNull();
    expect(message.html).toBe('<p>Hi<img src="cid:logo@example.com"></p>');
    expect(message.attachments).toMatchObject([{ filename: 'logo.png', detected_type: 'png', inline: true, size: 16 }]);
  });
});

describe('parseMail on what real phishing does', () => {
  it('takes URLs from the whole bodies, keeps them cut at 32,768 characters and says so', async () => {
    const message = await parsed(longBodiesMessage());
    expect(message.text).toHaveLength(MAX_EVENT_STRING);
    expect(message.html).toHaveLength(MAX_EVENT_STRING);
    expect(message).toMatchObject({ text_truncated: true, html_truncated: true });
    expect(message.text).not.toContain('late-text');
    expect(message.urls).toEqual([
      'https://early.example-phish.net/start',
      'https://late-text.example-phish.net/unsubscribe?u=1',
      'https://late-html.example-phish.net/claim?id=9',
    ]);
  });

  it('reads every Authentication-Results header of the receiving server: one per method keeps SPF and DKIM', async () => {
    const message = await parsed(splitAuthenticationMessage());
    expect(message.headers).toMatchObject({ spf: 'fail', dkim: 'fail', dmarc: 'fail', arc: null, compauth: null });
    expect(message.headers.authentication_results).toHaveLength(5);
  });

  it('reads the Microsoft 365 header, which has no authserv-id, from its first method', async () => {
    const message = await parsed(microsoftAuthenticationMessage());
    expect(message.headers).toMatchObject({ spf: 'softfail', dkim: 'none', dmarc: 'fail', compauth: 'fail' });
    expect(message.urls).toEqual(['https://portal.example-portal.com/keep']);
  });

  it('types HTML attachments by name and content, takes their URLs, and flags a double extension', async () => {
    const message = await parsed(htmlAttachmentsMessage());
    const [harvest, links] = message.attachments;
    expect(harvest).toMatchObject({
      filename: 'Remittance.Xls.htm',
      detected_type: 'html',
      double_extension: true,
      urls: [HARVEST_FORM_TARGET],
    });
    expect(links).toMatchObject({ filename: 'links.html', detected_type: 'html', double_extension: false });
    expect(links!.urls).toEqual(expect.arrayContaining(linkPageUrls()));
    expect(links!.urls).toEqual(
      expect.arrayContaining([
        'https://refresh.example-links.net/next',
        'https://base.example-links.net/dir/relative/page.html',
      ]),
    );
    expect(links!.urls.filter((url) => url.includes('example-links.net/p'))).toHaveLength(70);
    // The message's URLs hold the attachments' too: the form target the body never names.
    expect(message.urls).toContain(HARVEST_FORM_TARGET);
    expect(message.urls).toEqual(expect.arrayContaining(linkPageUrls()));
  });

  it('keeps a display name without an address, and reads a Date with junk after its zone', async () => {
    const message = await parsed(oddHeadersMessage());
    expect(message.from).toEqual({ address: null, name: 'DeBank' });
    expect(message.date).toBe('2024-03-13T08:15:30.000Z');
    expect(message.header_lines).toContainEqual({ name: 'X-Campaign', value: 'airdrop-7' });
  });
});
