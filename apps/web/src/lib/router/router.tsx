import {
  Children,
  createContext,
  forwardRef,
  isValidElement,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

/**
 * The console's router: the address bar as React state, the console's route tree and links. It does
 * what the console asks of a router and no more (no data loading, no relative paths), so the first
 * screen does not carry a general one; the API follows react-router's names.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

/** Where the location lives: the browser's history, or memory (tests). */
interface History {
  read: () => Location;
  go: (to: string, replace: boolean) => void;
  back: (delta: number) => void;
  listen: (onChange: () => void) => () => void;
}

interface RouterValue {
  location: Location;
  navigate: NavigateFunction;
  /** The address as it is now, also between a change and the render that shows it. */
  read: () => Location;
}

const RouterContext = createContext<RouterValue | null>(null);
const ParamsContext = createContext<Readonly<Record<string, string>>>({});
const OutletContext = createContext<ReactNode>(null);

/** `'/a/b?x=1#h'` → its parts; a path without `/` is not supported (the console writes absolute paths). */
export function parsePath(to: string): Location {
  const hashAt = to.indexOf('#');
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const searchAt = beforeHash.indexOf('?');
  return {
    pathname: (searchAt >= 0 ? beforeHash.slice(0, searchAt) : beforeHash) || '/',
    search: searchAt >= 0 ? beforeHash.slice(searchAt) : '',
    hash,
  };
}

const browserHistory: History = {
  read: () => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash }),
  go: (to, replace) => {
    if (replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
  },
  back: (delta) => window.history.go(delta),
  listen: (onChange) => {
    window.addEventListener('popstate', onChange);
    return () => window.removeEventListener('popstate', onChange);
  },
};

function memoryHistory(entries: readonly string[]): History {
  const stack = entries.length > 0 ? [...entries] : ['/'];
  let index = stack.length - 1;
  const listeners = new Set<() => void>();
  return {
    read: () => parsePath(stack[index] ?? '/'),
    go: (to, replace) => {
      if (replace) stack[index] = to;
      else {
        stack.splice(index + 1);
        stack.push(to);
        index = stack.length - 1;
      }
    },
    back: (delta) => {
      index = Math.min(Math.max(index + delta, 0), stack.length - 1);
      listeners.forEach((listener) => listener());
    },
    listen: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

function Router({ history, children }: { history: History; children: ReactNode }) {
  const [location, setLocation] = useState(history.read);
  // A new page may suspend while its code loads: the current one stays until it is ready.
  const update = useCallback(() => startTransition(() => setLocation(history.read())), [history]);
  useEffect(() => history.listen(update), [history, update]);
  const navigate = useCallback<NavigateFunction>(
    (to, options = {}) => {
      if (typeof to === 'number') {
        history.back(to);
        return;
      }
      const current = history.read();
      const target = to.startsWith('?') ? `${current.pathname}${to}` : to;
      history.go(target, options.replace ?? false);
      update();
    },
    [history, update],
  );
  const value = useMemo(() => ({ location, navigate, read: history.read }), [location, navigate, history]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  return <Router history={browserHistory}>{children}</Router>;
}

/** A router over a list of addresses in memory, the last one current (tests). */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [history] = useState(() => memoryHistory(initialEntries));
  return <Router history={history}>{children}</Router>;
}

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('A router hook is used outside a router.');
  return value;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): NavigateFunction => useRouter().navigate;
export const useParams = (): Readonly<Record<string, string | undefined>> => useContext(ParamsContext);

type SearchInit = URLSearchParams | string | Record<string, string>;

/** The query of the address, and a way to change it (a new history entry unless `replace`). */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { location, navigate, read } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const setParams = useCallback(
    (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      // Two changes in one event each build on the one before.
      const current = read();
      const value = new URLSearchParams(typeof next === 'function' ? next(new URLSearchParams(current.search)) : next);
      const query = value.toString();
      navigate(`${current.pathname}${query ? `?${query}` : ''}`, options);
    },
    [navigate, read],
  );
  return [params, setParams];
}

/**
 * `matchPath('/activate/:token', '/activate/abc')` → `{ token: 'abc' }`; null when it does not
 * match. A last segment `*` matches the rest of the path (also nothing).
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = pathname.split('/').filter(Boolean);
  const splat = patternParts[patternParts.length - 1] === '*';
  if (splat) patternParts.pop();
  if (splat ? pathParts.length < patternParts.length : pathParts.length !== patternParts.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < patternParts.length; index++) {
    const expected = patternParts[index]!;
    const actual = pathParts[index]!;
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (expected !== actual) return null;
  }
  return params;
}

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** A route of a `Routes` tree; it draws nothing itself. */
export function Route(_props: RouteProps): null {
  return null;
}

interface FlatRoute {
  path: string;
  element: ReactNode;
  /** The layout routes around it, outermost first. */
  layouts: ReactNode[];
  order: number;
}

function flatten(children: ReactNode, layouts: ReactNode[], into: FlatRoute[]): FlatRoute[] {
  Children.forEach(children, (child) => {
    if (!isValidElement(child) || child.type !== Route) return;
    const props = (child as ReactElement<RouteProps>).props;
    if (props.path === undefined && !props.index) {
      flatten(props.children, [...layouts, props.element], into);
      return;
    }
    into.push({ path: props.index ? '/' : props.path!, element: props.element, layouts, order: into.length });
  });
  return into;
}

/** How specific a path is: plain segments before parameters, a splat last (as react-router ranks them). */
function score(path: string): number {
  const segments = path.split('/').filter(Boolean);
  return segments.reduce((sum, segment) => sum + (segment === '*' ? -2 : segment.startsWith(':') ? 3 : 10), 0);
}

/** Draws the most specific route that matches the address, inside its layouts. */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const routes = useMemo(
    () => flatten(children, [], []).sort((a, b) => score(b.path) - score(a.path) || a.order - b.order),
    [children],
  );
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    const page = <ParamsContext.Provider value={params}>{route.element}</ParamsContext.Provider>;
    return route.layouts.reduceRight<ReactNode>(
      (inner, layout) => <OutletContext.Provider value={inner}>{layout}</OutletContext.Provider>,
      page,
    );
  }
  return null;
}

/** Where a layout route draws the page inside it. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

/** Moves to another address once drawn. */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
}

const modified = (event: MouseEvent) => event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;

/** A link inside the console: a plain click moves without reloading; other clicks do what the browser does. */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, onClick, target, ...rest },
  ref,
) {
  const navigate = useNavigate();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || modified(event) || (target && target !== '_self')) return;
    event.preventDefault();
    navigate(to, { replace: replace ?? false });
  };
  return <a ref={ref} href={to} target={target} onClick={handle} {...rest} />;
});

/** A link that says when it leads to the current page (`aria-current="page"`). */
export const NavLink = forwardRef<HTMLAnchorElement, LinkProps>(function NavLink(props, ref) {
  const { pathname } = useLocation();
  const current = parsePath(props.to).pathname === pathname;
  return <Link ref={ref} aria-current={current ? 'page' : undefined} {...props} />;
});
