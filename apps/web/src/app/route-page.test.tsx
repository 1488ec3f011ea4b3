// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { MemoryRouter } from '../lib/router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../lib/i18n';
import { AbilityProvider, updateAbility } from '../lib/permissions';
import { findRoute, type PageRoute } from './route-map';
import { RoutePage } from './route-page';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(async () => {
  cleanup();
  updateAbility(null);
  await changeLanguage('en');
});

function show(route: PageRoute) {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AbilityProvider>
          <MemoryRouter initialEntries={[route.path]}>
            <Suspense fallback={null}>
              <RoutePage route={route} />
            </Suspense>
          </MemoryRouter>
        </AbilityProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const complexReports = findRoute('complexReports')!;

describe('a link to a section that is not built yet', () => {
  it('says so by name to someone who holds the section’s permission (a SOC lead), not "no access" or "not found"', () => {
    updateAbility([{ basename: 'complex-reports', actions: ['view', 'add', 'change', 'delete'] }]);
    show(complexReports);
    expect(screen.getByTestId('unavailable').textContent).toContain('This section is not available yet');
    expect(screen.getByTestId('unavailable').textContent).toContain('“Searches and reports → Complex reports”');
    expect(screen.queryByTestId('no-access')).toBeNull();
    expect(screen.queryByTestId('not-found')).toBeNull();
  });

  it('says the same to someone without it: the route map is no secret', () => {
    updateAbility([{ basename: 'alerts', actions: ['view'] }]);
    show(findRoute('licences')!);
    expect(screen.getByTestId('unavailable').textContent).toContain('“Settings → Licences”');
    expect(screen.queryByTestId('no-access')).toBeNull();
  });

  it('names the section in Russian', async () => {
    await act(() => changeLanguage('ru'));
    show(findRoute('tiReports')!);
    const page = screen.getByTestId('unavailable').textContent ?? '';
    expect(page).toContain('Этот раздел пока недоступен');
    expect(page).toContain('«Аналитика угроз → Отчёты об угрозах»');
  });

  it('a section that is its own page is named once', () => {
    show(findRoute('serviceDesk')!);
    expect(screen.getByTestId('unavailable').textContent).toContain('“Service desk”');
  });
});

describe('a built page', () => {
  const built: PageRoute = {
    id: 'systemLogs',
    path: '/settings/system-logs',
    permission: { action: 'view', subject: 'system_logs' },
    page: lazy(() => Promise.resolve({ default: () => <p>the system log</p> })),
  };

  it('still shows "no access" to someone who may not open it', () => {
    updateAbility([{ basename: 'alerts', actions: ['view'] }]);
    show(built);
    expect(screen.getByTestId('no-access')).toBeTruthy();
    expect(screen.queryByTestId('unavailable')).toBeNull();
  });

  it('opens for someone who may', async () => {
    updateAbility([{ basename: 'system_logs', actions: ['view'] }]);
    show(built);
    expect(await screen.findByText('the system log')).toBeTruthy();
  });
});
