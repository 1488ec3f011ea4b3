// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { titleCutTexts } from './virtual-table';

/** Gives an element the box a browser would lay it out in (happy-dom lays nothing out). */
function sized<E extends HTMLElement>(element: E, clientWidth: number, scrollWidth: number): E {
  Object.defineProperty(element, 'clientWidth', { configurable: true, get: () => clientWidth });
  Object.defineProperty(element, 'scrollWidth', { configurable: true, get: () => scrollWidth });
  return element;
}

function cell(...children: HTMLElement[]): HTMLElement {
  const element = sized(document.createElement('div'), 200, 200);
  element.setAttribute('role', 'cell');
  element.append(...children);
  return element;
}

function span(text: string, clientWidth: number, scrollWidth: number): HTMLSpanElement {
  const element = sized(document.createElement('span'), clientWidth, scrollWidth);
  element.textContent = text;
  return element;
}

describe('titleCutTexts', () => {
  it('titles a cut text only: not one that fits, one the page titled, or one kept for screen readers', () => {
    const cut = span('  10.40.2.11:60517\n  →  203.0.113.80:443 ', 120, 260);
    const whole = span('AC-IT-01', 120, 80);
    const own = span('Indicator match: domain sec-verify.example', 100, 300);
    own.title = 'the page’s own';
    const hidden = span('Actions', 1, 48);
    titleCutTexts(cell(cut, whole, own, hidden));
    expect([cut.title, whole.title, own.title, hidden.title]).toEqual([
      '10.40.2.11:60517 → 203.0.113.80:443',
      '',
      'the page’s own',
      '',
    ]);
  });

  it('takes its title back once the text fits again, and follows a changed text', () => {
    const text = span('Northwind Logistics', 80, 130);
    const box = cell(text);
    titleCutTexts(box);
    expect(text.title).toBe('Northwind Logistics');
    text.textContent = 'Aurora Clinic and Partners';
    titleCutTexts(box);
    expect(text.title).toBe('Aurora Clinic and Partners');
    sized(text, 200, 130);
    titleCutTexts(box);
    expect(text.hasAttribute('title')).toBe(false);
  });
});
