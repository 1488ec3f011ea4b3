// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http';
import { initI18n } from '../../lib/i18n';
import { FormError } from './form-error';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => cleanup());

const refusal = () =>
  new ApiError('ERR_BAD_REQUEST', 'refused', {
    status: 400,
    fieldErrors: { title: ['Too long.'], alertIds: ['Alert 7 does not exist.'] },
  });

describe('the form-level error of a refused submission', () => {
  it('lists the problems of fields the form does not show', () => {
    render(
      <MantineProvider>
        <FormError error={refusal()} shownFields={['title']} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('form-error').textContent).toBe('Alert 7 does not exist.');
  });

  it('says nothing the client already put in a notification', () => {
    const error = refusal();
    error.notified = true;
    render(
      <MantineProvider>
        <FormError error={error} shownFields={['title']} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('form-error')).toBeNull();
  });
});
