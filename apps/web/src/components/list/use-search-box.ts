import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/**
 * A search box over a list's `search` filter: typing applies after a pause, Enter at once, and the
 * URL stays the truth (going back in history brings its text back into the box).
 */
export function useSearchBox(current: string | undefined, apply: (value: string | undefined) => void) {
  const [value, setValue] = useState(current ?? '');
  const debounced = useDebouncedCallback((text: string) => apply(text.trim() || undefined), 400);
  useEffect(() => setValue(current ?? ''), [current]);
  return {
    value,
    onChange: (event: { currentTarget: { value: string } }) => {
      setValue(event.currentTarget.value);
      debounced(event.currentTarget.value);
    },
    onKeyDown: (event: { key: string }) => {
      if (event.key === 'Enter') apply(value.trim() || undefined);
    },
    clear: () => setValue(''),
  };
}
