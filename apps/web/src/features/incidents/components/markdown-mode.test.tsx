// @vitest-environment jsdom
// jsdom, not happy-dom: the preview sanitises with DOMPurify, whose NodeIterator happy-dom stops early.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpComponentTests } from '../../../test/component-tests';
import { MarkdownField } from './markdown-mode';

setUpComponentTests();

describe('MarkdownField', () => {
  it('previews the text as it will read, or what stands in for a blank one', () => {
    const field = (value: string) => (
      <MarkdownField
        mode="preview"
        rows={[3, 6]}
        value={value}
        onChange={() => undefined}
        emptyPreview={<span>Nothing yet</span>}
        previewTestId="preview"
      />
    );
    const { rerender } = render(field('  '));
    expect(screen.getByTestId('preview').textContent).toBe('Nothing yet');
    rerender(field('**Contained**'));
    expect(screen.getByTestId('preview').querySelector('strong')?.textContent).toBe('Contained');
  });
});
