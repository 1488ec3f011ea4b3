// @vitest-environment jsdom
// jsdom, not happy-dom: DOMPurify walks the tree with a NodeIterator, and happy-dom's stops at the
// first removed node, which would leave the rest unsanitised and make these tests meaningless.
import { describe, expect, it } from 'vitest';
import { detached } from '../../test/dom';
import { sanitizeHtml } from './sanitize-html';

/** The sanitised HTML as a detached element, to ask it questions. */
const cleaned = (html: string): HTMLElement => detached(sanitizeHtml(html));

describe('sanitizeHtml (server message HTML)', () => {
  it('keeps the formatting tags and their text', () => {
    const html = '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><br><p>p</p><ul><li>l</li></ul><code>c</code>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('removes an <img onerror>, event handlers, styles and classes', () => {
    const html = cleaned('<img src=x onerror="alert(1)"><b onclick="alert(2)" style="color:red" class="x">bold</b>');
    expect(html.querySelector('img')).toBeNull();
    expect(html.innerHTML).toBe('<b>bold</b>');
  });

  it('drops links to javascript:, data: and other hosts by //, keeping the link text', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      '&#106;avascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example/x',
    ]) {
      const link = cleaned(`<a href="${href}">text</a>`).querySelector('a');
      expect(link?.getAttribute('href')).toBeNull();
      expect(link?.textContent).toBe('text');
    }
  });

  it('keeps web links and console paths, opened in a new tab without a referrer', () => {
    for (const href of ['https://intel.example/report/42', 'http://intel.example/', '/alerts/12/']) {
      const link = cleaned(`<a href="${href}" title="t" onclick="x()">go</a>`).querySelector('a');
      expect(link?.getAttribute('href')).toBe(href);
      expect(link?.getAttribute('target')).toBe('_blank');
      expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link?.getAttribute('title')).toBeNull();
      expect(link?.getAttribute('onclick')).toBeNull();
    }
  });

  it('unwraps other elements keeping their text, and drops scripts and styles with their content', () => {
    expect(sanitizeHtml('<div><font color="red">kept</font> <h1>too</h1></div>')).toBe('kept too');
    expect(sanitizeHtml('a<script>window.__owned = 1</script><style>b{}</style>b')).toBe('ab');
    expect(
      cleaned('<svg><a href="https://x.example">s</a></svg><iframe src="https://x.example"></iframe>x').innerHTML,
    ).toBe('x');
  });
});
