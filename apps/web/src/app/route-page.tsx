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
  const Page = route.page;
  return <Page />;
}
