import { describe, expect, it } from 'vitest';
import { expectEvery } from '../../../test/answers';
import { hasRemoteContent, MAIL_CSP, mailSrcdoc } from './mail-frame';

describe('mailSrcdoc', () => {
  it('puts the Content-Security-Policy meta first, before any of the message', () => {
    const doc = mailSrcdoc(
      '<html><head><meta http-equiv="Content-Security-Policy" content="default-src *"></head></html>',
    );
    expect(doc.startsWith(`<meta http-equiv="Content-Security-Policy" content="${MAIL_CSP}">`)).toBe(true);
    expect(MAIL_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:");
  });

  it('keeps the message markup as it is after the head', () => {
    const html = '<p onclick="x()">Hi</p><script>parent.postMessage(1, "*")</script>';
    expect(mailSrcdoc(html).endsWith(html)).toBe(true);
  });
});

describe('hasRemoteContent', () => {
  it('finds remote images, backgrounds, styles and imports', () => {
    expectEvery(hasRemoteContent, [
      '<img src="http://track.example/o.gif">',
      "<img src='//cdn.example/a.png'>",
      '<td background=https://x.example/b.jpg>',
      '<div style="background: url( \'https://x.example/a.png\')">',
      '<style>@import "https://x.example/a.css";</style>',
      '<link rel="stylesheet" href="https://x.example/a.css">',
    ]);
  });

  it('does not count links, inline images or cid: parts', () => {
    expectEvery(
      hasRemoteContent,
      [
        '<a href="https://example.com/login">Log in</a>',
        '<img src="cid:logo@x"><img src="data:image/png;base64,AAAA">',
        '<p>Visit https://example.com</p>',
      ],
      false,
    );
  });
});
