import { NavLink, ScrollArea } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { NavLink as RouterLink, useLocation } from '../../lib/router';
import { useAbility } from '../../lib/permissions';
import { isListedRoute, isMenuRoute, routeMap, type NavSection, type PageRoute } from '../route-map';

/** Sections and their pages that the user may open and that exist: menu pages whose permission the user holds. */
export function useVisibleMenu(): { section: NavSection; routes: PageRoute[] }[] {
  const ability = useAbility();
  return routeMap
    .map((section) => ({
      section,
      routes: section.routes.filter(
        (route) =>
          isMenuRoute(route) && (!route.permission || ability.can(route.permission.action, route.permission.subject)),
      ),
    }))
    .filter((entry) => entry.routes.length > 0);
}

/** The sidebar: one entry per section; a section of several pages opens to list them. */
export function Sidebar() {
  const { t } = useTranslation();
  const location = useLocation();
  const menu = useVisibleMenu();
  const matches = (route: PageRoute) =>
    location.pathname === route.path || location.pathname.startsWith(`${route.path}/`);
  // The most specific entry the address is under: /searches/reports/2 is a report, not a saved search.
  const current = menu
    .flatMap(({ routes }) => routes)
    .filter(matches)
    .reduce<PageRoute | null>((best, route) => (best && best.path.length >= route.path.length ? best : route), null);
  const isActive = (route: PageRoute) => route === current;

  return (
    <ScrollArea className="vigil-sidebar__scroll" type="hover">
      <nav aria-label={t('nav.label')} className="vigil-sidebar" data-testid="sidebar">
        {menu.map(({ section, routes }) => {
          const Icon = section.icon;
          const icon = <Icon size={18} stroke={1.7} />;
          // A section of one page (its detail pages aside) is a plain link, not a group of one.
          if (routes.length === 1 && section.routes.filter(isListedRoute).length === 1) {
            const route = routes[0]!;
            return (
              <NavLink
                key={section.id}
                component={RouterLink}
                to={route.path}
                label={t(`nav.${route.id}`)}
                leftSection={icon}
                active={isActive(route)}
                className="vigil-sidebar__link"
              />
            );
          }
          const open = routes.some(isActive);
          return (
            <NavLink
              key={section.id}
              label={t(`nav.${section.id}`)}
              leftSection={icon}
              defaultOpened={open || menu.length <= 3}
              className="vigil-sidebar__link"
              childrenOffset={30}
            >
              {routes.map((route) => (
                <NavLink
                  key={route.id}
                  component={RouterLink}
                  to={route.path}
                  label={t(`nav.${route.id}`)}
                  active={isActive(route)}
                  className="vigil-sidebar__sublink"
                />
              ))}
            </NavLink>
          );
        })}
      </nav>
    </ScrollArea>
  );
}
