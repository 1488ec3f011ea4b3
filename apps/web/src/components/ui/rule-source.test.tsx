// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RuleSource } from './rule-source';

afterEach(() => cleanup());

describe('a rule’s source', () => {
  it('numbers its lines and paints each token in its syntax colour, as text', () => {
    render(<RuleSource language="yara" source={'rule A {\n  condition: <b>true</b>\n}'} testId="source" />);
    const source = screen.getByTestId('source');
    expect(source.querySelectorAll('.vigil-rule-source__line')).toHaveLength(3);
    const keyword = [...source.querySelectorAll('[data-kind="keyword"]')].map((span) => span.textContent);
    expect(keyword).toEqual(expect.arrayContaining(['rule', 'condition', 'true']));
    expect(source.querySelector('[data-kind="function"]')?.getAttribute('style')).toContain(
      'var(--vigil-syntax-function)',
    );
    // Markup in a rule is text, never elements.
    expect(source.querySelector('b')).toBeNull();
    expect(source.textContent).toContain('<b>');
  });
});
