import '@mantine/core/styles.css';
import './main-app.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from '../lib/router';
import { EmptyStartPage } from '../components/pages/empty-start-page';
import { NotFoundPage } from '../components/pages/not-found-page';
import { createQueryClient } from '../lib/fetch-state';
import { AbilityProvider, connectAbility } from '../lib/permissions';
import { getCurrentUser, subscribeCurrentUser } from '../lib/session';
import { MantineThemeProvider } from '../lib/theme/mantine-provider';
import { HeadlessLayout, MainLayout } from './layout/main-layout';
import { useVisibleMenu } from './layout/sidebar';
import { allRoutes } from './route-map';
import { RoutePage } from './route-page';

// Permissions are rebuilt each time user data is set, from the moment this application loads.
connectAbility(subscribeCurrentUser, () => getCurrentUser()?.permissions);

/** `/`: the first page of the menu the user may open. */
function StartPage() {
  const first = useVisibleMenu()[0]?.routes[0];
  return first ? <Navigate to={first.path} replace /> : <EmptyStartPage />;
}

/**
 * One cache for the page's life, made outside the component: the first render of the application
 * suspends while a page's code loads, and state made in a render that never committed is thrown
 * away — a cache kept in state would lose what that render already asked for. Signing out loads
 * the sign-in page anew, so no data outlives the session in this tab.
 */
const queryClient = createQueryClient();

/** The main application: every page of the route map, for a fully signed-in user. */
export default function MainApp() {
  const mainRoutes = allRoutes.filter((route) => route.layout !== 'headless');
  const headlessRoutes = allRoutes.filter((route) => route.layout === 'headless');
  return (
    <MantineThemeProvider>
      <QueryClientProvider client={queryClient}>
        <AbilityProvider>
          <BrowserRouter>
            <Routes>
              <Route element={<HeadlessLayout />}>
                {headlessRoutes.map((route) => (
                  <Route key={route.id} path={route.path} element={<RoutePage route={route} />} />
                ))}
                <Route path="/headless-chrome/*" element={<NotFoundPage />} />
              </Route>
              <Route element={<MainLayout />}>
                <Route index element={<StartPage />} />
                {mainRoutes.map((route) => (
                  <Route key={route.id} path={route.path} element={<RoutePage route={route} />} />
                ))}
                {/* Auth pages are not part of the main application: a signed-in user moves on. */}
                <Route path="/login" element={<Navigate to="/" replace />} />
                <Route path="/otp" element={<Navigate to="/" replace />} />
                <Route path="/password_expired" element={<Navigate to="/" replace />} />
                <Route path="*" element={<NotFoundPage />} />
              </Route>
            </Routes>
          </BrowserRouter>
        </AbilityProvider>
      </QueryClientProvider>
    </MantineThemeProvider>
  );
}
