import { useCallback, useState } from 'react';

/** The fields of `T` whose values are of type `V`. */
type FieldsOf<T, V> = { [K in keyof T]-?: T[K] extends V ? K : never }[keyof T];

/**
 * A form's values kept in state, with change handlers bound to one field each: `text(field)` for an
 * input whose value is text, `checked(field)` for a switch or a checkbox. The handlers read the event
 * at once: its target is gone by the time the state updater runs.
 */
export function useFormValues<T extends object>(initial: T | (() => T)) {
  const [values, setValues] = useState(initial);
  const setField = useCallback(
    <K extends keyof T>(field: K, value: T[K]) => setValues((previous) => ({ ...previous, [field]: value })),
    [],
  );
  const text =
    <K extends FieldsOf<T, string>>(field: K) =>
    (event: { currentTarget: { value: string } }) =>
      setField(field, event.currentTarget.value as T[K]);
  const checked =
    <K extends FieldsOf<T, boolean>>(field: K) =>
    (event: { currentTarget: { checked: boolean } }) =>
      setField(field, event.currentTarget.checked as T[K]);
  return { values, setValues, setField, text, checked };
}
