// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { alertSources } from '@vigil/contract/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { SourceIcon, sourceIcon } from './source-icon';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);

const attributes = (element: Element) =>
  Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value]));

describe('sourceIcon', () => {
  it('draws the Tabler icon with the same attributes and all its strokes in one path', () => {
    for (const source of alertSources) {
      const tabler = render(<SourceIcon source={source} />).container.querySelector('svg')!;
      const plain = render(sourceIcon(source, tabler.getAttribute('aria-label')!)).container.querySelector('svg')!;
      expect(attributes(plain)).toEqual(attributes(tabler));
      const strokes = [...tabler.querySelectorAll('path')].map((path) => path.getAttribute('d'));
      expect(plain.querySelectorAll('path')).toHaveLength(1);
      expect(plain.querySelector('path')!.getAttribute('d')).toBe(strokes.join(' '));
    }
  });
});
