// @vitest-environment jsdom
// jsdom, not happy-dom: DOMPurify walks the tree with a NodeIterator, and happy-dom's stops at the
// first removed node, which would leave the rest unsanitised and make these tests meaningless.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { detached } from '../../test/dom';
import { renderMarkdown } from './markdown';
import { MarkdownView } from './markdown-view';

/** The rendered Markdown as a detached element, to ask it questions. */
const rendered = (source: string): HTMLElement => detached(renderMarkdown(source));

describe('renderMarkdown', () => {
  it('formats Markdown: emphasis, lists, code and headings', () => {
    const html = rendered('# Findings\n\n**Lateral movement** from `10.0.0.5`:\n\n- first host\n- second host');
    expect(html.querySelector('h1')?.textContent).toBe('Findings');
    expect(html.querySelector('strong')?.textContent).toBe('Lateral movement');
    expect(html.querySelector('code')?.textContent).toBe('10.0.0.5');
    expect([...html.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['first host', 'second host']);
  });

  it('removes <script> elements and keeps the text around them', () => {
    const html = rendered('Before <script>window.__owned = true</script> after');
    expect(html.querySelector('script')).toBeNull();
    expect(html.innerHTML).not.toContain('__owned');
    expect(html.textContent).toContain('Before');
    expect(html.textContent).toContain('after');
  });

  it('removes event handler attributes such as onerror', () => {
    const html = rendered('<img src="/x.png" onerror="alert(1)"> <b onclick="alert(2)" onmouseover="x()">bold</b>');
    expect(html.innerHTML).not.toMatch(/onerror|onclick|onmouseover/i);
    expect(html.querySelector('b')?.textContent).toBe('bold');
  });

  it('drops javascript: and data: links but keeps their text', () => {
    const html = rendered(
      '[click](javascript:alert(1)) and <a href="JaVaScRiPt:alert(2)">raw</a> and [d](data:text/html,x)',
    );
    for (const link of html.querySelectorAll('a')) expect(link.getAttribute('href')).toBeNull();
    expect(html.innerHTML).not.toMatch(/javascript:|data:text/i);
    expect(html.textContent).toContain('click');
    expect(html.textContent).toContain('raw');
  });

  it('opens web links in a new tab without telling the target who opened it', () => {
    const link = rendered('See [the report](https://intel.example/report/42).').querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://intel.example/report/42');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows no image from a remote host (its description instead) but keeps images of the console', () => {
    const html = rendered('![tracking pixel](https://tracker.example/p.gif) ![ours](/api/files/1/preview.png)');
    const images = [...html.querySelectorAll('img')];
    expect(images.map((img) => img.getAttribute('src'))).toEqual(['/api/files/1/preview.png']);
    expect(html.innerHTML).not.toContain('tracker.example');
    expect(html.textContent).toContain('tracking pixel');
  });

  it('keeps a list start, table alignment and link titles, and no other attribute', () => {
    const html = rendered(
      '3. three\n4. four\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n[t](https://a.example "Title") <p id="x" class="y" align="center">q</p>',
    );
    expect(html.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect([...html.querySelectorAll('th')].map((th) => th.getAttribute('align'))).toEqual(['center', 'right']);
    expect(html.querySelector('a')?.getAttribute('title')).toBe('Title');
    const p = [...html.querySelectorAll('p')].find((e) => e.textContent === 'q');
    expect(p?.attributes).toHaveLength(0);
  });

  it('drops iframes, forms, styles and inline style attributes', () => {
    const html = rendered(
      '<iframe name="frame"></iframe><form action="/x"><input name="a"></form><style>p{}</style><p style="color:red">p</p>',
    );
    expect(html.querySelector('iframe, form, input, style')).toBeNull();
    expect(html.querySelector('p')?.getAttribute('style')).toBeNull();
  });
});

describe('MarkdownView', () => {
  afterEach(cleanup);

  it('renders formatted, sanitised Markdown', () => {
    const { container } = render(<MarkdownView source={'*quiet* <img src=x onerror="alert(1)">'} />);
    expect(container.querySelector('.vigil-markdown em')?.textContent).toBe('quiet');
    expect(container.innerHTML).not.toContain('onerror');
    expect(container.querySelector('img')).toBeNull();
  });
});
