import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/**
 * A router for the reduced application's five screens. react-router serves the main application;
 * the sign-in screens use this instead so their chunk stays within its size budget (issue 4:
 * 120 KB gzipped), which a full router alone would take a sixth of.
 */

interface MiniLocation {
  pathname: string;
  search: string;
}

interface RouterValue extends MiniLocation {
  navigate: (to: string, options?: { replace?: boolean }) => void;
}

const RouterContext = createContext<RouterValue | null>(null);

function readLocation(): MiniLocation {
  return { pathname: window.location.pathname, search: window.location.search };
}

export function MiniRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const onPop = () => setLocation(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    if (options.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    setLocation(readLocation());
  }, []);
  const value = useMemo(() => ({ ...location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useMiniRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useMiniRouter is used outside MiniRouter');
  return value;
}

/** `matchPath('/activate/:token', '/activate/abc')` → `{ token: 'abc' }`; null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = pathname.split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < patternParts.length; index++) {
    const expected = patternParts[index]!;
    const actual = pathParts[index]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = decodeURIComponent(actual);
    else if (expected !== actual) return null;
  }
  return params;
}

/** Replaces the location once rendered. */
export function Redirect({ to }: { to: string }) {
  const { navigate } = useMiniRouter();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}
