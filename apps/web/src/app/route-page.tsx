import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { useLocation } from '../lib/router';
import { NoAccessPage } from '../components/pages/no-access-page';
import { UnavailablePage } from '../components/pages/unavailable-page';
import { usePermission } from '../lib/permissions';
import { sectionOf, type PageRoute } from './route-map';

/**
 * One route of the map. A section that is not built yet says so to everyone, by name: the route map
 * is the same for every user (it ships in the console's code), so this tells nobody anything about
 * data they may not see. A built page the user may not open shows "no access"; an address the map
 * does not know is "not found" (the router's catch-all).
 */
export function RoutePage({ route }: { route: PageRoute }) {
  const allowed = usePermission(route.permission);
  if (!route.page) return <UnbuiltPage route={route} />;
  if (!allowed) return <NoAccessPage />;
  return <AllowedPage route={route} page={route.page} />;
}

/** "Section → page" (or the page alone when it is its section), in the interface language. */
function UnbuiltPage({ route }: { route: PageRoute }) {
  const { t } = useTranslation();
  const section = sectionOf(route);
  const name =
    section && section.id !== route.id ? `${t(`nav.${section.id}`)} → ${t(`nav.${route.id}`)}` : t(`nav.${route.id}`);
  return <UnavailablePage section={name} />;
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
