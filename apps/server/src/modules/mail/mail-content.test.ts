import { describe, expect, it } from 'vitest';
import { htmlToText, mailBody, markdownToHtml, sanitizeMailHtml, textToHtml } from './mail-content';
import { compareVersions, parseReleaseNote } from './release-notes';

describe('mail content', () => {
  it('escapes plain text into paragraphs', () => {
    expect(textToHtml('Hello <b>you</b> & co,\nline two\n\n\nNext')).toBe(
      '<p>Hello &lt;b&gt;you&lt;/b&gt; &amp; co,<br>\nline two</p>\n<p>Next</p>',
    );
  });

  it('keeps safe HTML and drops scripts, handlers, images, styles and unsafe links', () => {
    expect(
      sanitizeMailHtml(
        '<p style="color:red" onclick="x()">Hi <a href="javascript:x()">a</a> <a href="mailto:soc@example.com">b</a></p>' +
          '<img src="https://t.example.com/p.gif"><style>p{}</style><script>x()</script><form><input></form>',
      ),
    ).toBe('<p>Hi <a>a</a> <a href="mailto:soc@example.com">b</a></p>');
  });

  it('turns HTML into readable text', () => {
    expect(htmlToText('<h1>Title</h1><p>One &amp; <b>two</b><br>three</p><ul><li>a</li><li>b</li></ul>')).toBe(
      'Title\n\nOne & two\nthree\n\n- a\n- b',
    );
  });

  it('derives the missing part of a body from the other', () => {
    expect(mailBody({ text: 'Hi' })).toEqual({ text: 'Hi', html: '<p>Hi</p>' });
    expect(mailBody({ html: '<p>Hi</p><script>x</script>' })).toEqual({ text: 'Hi', html: '<p>Hi</p>' });
    expect(mailBody({ text: 'Plain', html: '<p>Rich</p>' })).toEqual({ text: 'Plain', html: '<p>Rich</p>' });
  });

  it('renders Markdown safely', () => {
    expect(markdownToHtml('## Part\n\n- one\n- two <script>x</script>')).toBe(
      '<h2>Part</h2>\n<ul>\n<li>one</li>\n<li>two </li>\n</ul>',
    );
  });
});

describe('release notes', () => {
  it('orders versions as releases', () => {
    const versions = ['0.10.0', '0.9.0', '1.0.0-rc.2', '1.0.0', '1.0.0-rc.10', '0.9.1'];
    expect(versions.sort(compareVersions)).toEqual(['0.9.0', '0.9.1', '0.10.0', '1.0.0-rc.2', '1.0.0-rc.10', '1.0.0']);
  });

  it('reads the title, the release date and the notes', () => {
    expect(parseReleaseNote('1.2.3', '\n# Faster lists\n\nReleased: 2027-02-01\n\n## Lists\n\n- quicker\n')).toEqual({
      version: '1.2.3',
      title: 'Faster lists',
      date: '2027-02-01',
      body: '## Lists\n\n- quicker',
    });
    expect(parseReleaseNote('1.2.3', '# Title\n\nNotes')).toMatchObject({ date: null, body: 'Notes' });
    expect(parseReleaseNote('1.2.3', 'No heading\n\nNotes')).toBeNull();
  });
});
