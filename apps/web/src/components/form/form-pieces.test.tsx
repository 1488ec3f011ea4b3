// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setUpComponentTests } from '../../test/component-tests';
import { FormActions } from './form-frame';
import { useFormValues } from './form-values';
import { SaveButton } from './save-button';

setUpComponentTests();

const wrap = ({ children }: { children: ReactNode }) => <MantineProvider>{children}</MantineProvider>;

describe('useFormValues', () => {
  it('binds change handlers to one field each and leaves the others as they were', () => {
    const { result } = renderHook(() => useFormValues({ name: 'Ada', phone: '', critan: false }));
    act(() => result.current.text('phone')({ currentTarget: { value: '+7 900' } }));
    act(() => result.current.checked('critan')({ currentTarget: { checked: true } }));
    expect(result.current.values).toEqual({ name: 'Ada', phone: '+7 900', critan: true });
    act(() => result.current.setField('name', 'Grace'));
    expect(result.current.values).toEqual({ name: 'Grace', phone: '+7 900', critan: true });
  });
});

describe('FormActions', () => {
  const labels = () => screen.getAllByRole('button').map((button) => button.textContent);

  it('puts cancel first at the end of a dialog, submit first inline, and no cancel where none is given', () => {
    const { rerender } = render(<FormActions onCancel={() => undefined} submitLabel="Send" loading={false} />, {
      wrapper: wrap,
    });
    expect(labels()).toEqual(['Cancel', 'Send']);
    rerender(<FormActions inline onCancel={() => undefined} submitLabel="Send" loading={false} />);
    expect(labels()).toEqual(['Send', 'Cancel']);
    rerender(<FormActions inline submitLabel="Send" loading={false} disabled />);
    expect(labels()).toEqual(['Send']);
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('SaveButton', () => {
  it('saves only once something changed', () => {
    const onSave = vi.fn();
    const { rerender } = render(<SaveButton changed={false} saving={false} onSave={onSave} testId="save" />, {
      wrapper: wrap,
    });
    fireEvent.click(screen.getByTestId('save'));
    expect(onSave).not.toHaveBeenCalled();
    rerender(<SaveButton changed saving={false} onSave={onSave} testId="save" />);
    fireEvent.click(screen.getByTestId('save'));
    expect(onSave).toHaveBeenCalledTimes(1);
  });
});
