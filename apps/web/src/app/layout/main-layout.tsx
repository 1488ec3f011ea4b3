import { Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from '../../lib/router';
import { MaintenanceBanner } from '../../components/maintenance-banner';
import { savePath } from '../../lib/session';
import { Header } from './header';
import { ImpersonationBanner } from './impersonation-banner';
import { Sidebar } from './sidebar';

/** The signed-in console: header, sidebar and the page. */
export function MainLayout() {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(() => {
    // Where the user is, to come back to after signing in again.
    savePath(`${location.pathname}${location.search}${location.hash}`);
    close();
  }, [location, close]);

  return (
    <div className="vigil-shell" data-nav-opened={navOpened || undefined}>
      <header className="vigil-shell__header">
        <Header navOpened={navOpened} onToggleNav={toggle} />
      </header>
      <nav className="vigil-shell__navbar">
        <Sidebar />
      </nav>
      <main className="vigil-shell__main">
        <MaintenanceBanner />
        <ImpersonationBanner />
        <div className="vigil-page">
          <Suspense
            fallback={
              <div className="vigil-page__loading">
                <Loader size="sm" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}

/** Report and print pages opened by a headless browser: the page alone, without menu or header. */
export function HeadlessLayout() {
  return (
    <main className="vigil-headless">
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </main>
  );
}
