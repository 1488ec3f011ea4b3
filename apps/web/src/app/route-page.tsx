import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { NoAccessPage } from '../components/pages/no-access-page';
import { NotFoundPage } from '../components/pages/not-found-page';
import { usePermission } from '../lib/permissions';
import type { PageRoute } from './route-map';

/**
 * One route of the map: "no access" when the user may not open it (checked first, so a link to a
 * forbidden page never tells whether it exists), "not found" while the page is not built.
 */
export function RoutePage({ route }: { route: PageRoute }) {
  const allowed = usePermission(route.permission);
  if (!allowed) return <NoAccessPage />;
  if (!route.page) return <NotFoundPage />;
  return <AllowedPage route={route} page={route.page} />;
}

/** The last prefetch asked for: a render that suspends runs again, and must not read twice. */
let lastPrefetch = { key: '', at: 0 };

function prefetchOnce(route: PageRoute, client: QueryClient, search: string): void {
  if (!route.prefetch) return;
  const key = `${route.id}?${search}`;
  const now = Date.now();
  if (lastPrefetch.key === key && now - lastPrefetch.at < 2_000) return;
  lastPrefetch = { key, at: now };
  route.prefetch(client, new URLSearchParams(search));
}

function AllowedPage({ route, page: Page }: { route: PageRoute; page: NonNullable<PageRoute['page']> }) {
  const client = useQueryClient();
  const { search } = useLocation();
  // The page's data is asked for as it is first rendered, while its code is still downloading
  // (rendering suspends until then, and runs again when it is there).
  useState(() => prefetchOnce(route, client, search));
  return <Page />;
}
