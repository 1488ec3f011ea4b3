// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  Link,
  matchPath,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  parsePath,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from '.';

function Where() {
  const { pathname, search, hash } = useLocation();
  return <output data-testid="where">{`${pathname}${search}${hash}`}</output>;
}

function Params() {
  return <span data-testid="params">{JSON.stringify(useParams())}</span>;
}

function Layout({ name }: { name: string }) {
  return (
    <section data-testid={name}>
      <Outlet />
    </section>
  );
}

function app(at: string) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route element={<Layout name="headless" />}>
          <Route path="/headless-chrome/reports/:id" element={<Params />} />
          <Route path="/headless-chrome/*" element={<span>no such report</span>} />
        </Route>
        <Route element={<Layout name="main" />}>
          <Route index element={<span>start</span>} />
          <Route path="/settings/users/:id" element={<Params />} />
          <Route path="/settings/users/roles" element={<span>roles</span>} />
          <Route path="*" element={<span>not found</span>} />
        </Route>
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('router', () => {
  afterEach(cleanup);

  it('matches paths, parameters and splats', () => {
    expect(matchPath('/alerts/:id', '/alerts/42')).toEqual({ id: '42' });
    expect(matchPath('/alerts/:id', '/alerts/42/')).toEqual({ id: '42' });
    expect(matchPath('/alerts/:id', '/alerts')).toBeNull();
    expect(matchPath('/activate/:token', '/activate/a%20b')).toEqual({ token: 'a b' });
    expect(matchPath('/activate/:token', '/activate/%E0%A4%A')).toBeNull();
    expect(matchPath('/headless-chrome/*', '/headless-chrome')).toEqual({});
    expect(matchPath('/headless-chrome/*', '/headless-chrome/x/y')).toEqual({});
    expect(matchPath('*', '/anything/at/all')).toEqual({});
    expect(parsePath('/a/b?x=1&y=2#top')).toEqual({ pathname: '/a/b', search: '?x=1&y=2', hash: '#top' });
  });

  it('draws the most specific route inside its layouts, whatever the order they are written in', () => {
    app('/settings/users/roles');
    expect(screen.getByTestId('main').textContent).toBe('roles');
  });

  it('passes path parameters, and falls back to splats and the index', () => {
    const { unmount } = app('/headless-chrome/reports/7');
    expect(screen.getByTestId('headless').textContent).toBe('{"id":"7"}');
    unmount();
    const second = app('/headless-chrome/unknown');
    expect(screen.getByTestId('headless').textContent).toBe('no such report');
    second.unmount();
    const third = app('/');
    expect(screen.getByTestId('main').textContent).toBe('start');
    third.unmount();
    app('/nowhere');
    expect(screen.getByTestId('main').textContent).toBe('not found');
  });

  it('moves on a plain click of a link and leaves other clicks to the browser', async () => {
    render(
      <MemoryRouter initialEntries={['/a']}>
        <Link to="/b?x=1">to b</Link>
        <NavLink to="/a">here</NavLink>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('here').getAttribute('aria-current')).toBe('page');
    const link = screen.getByText('to b');
    expect(link.getAttribute('href')).toBe('/b?x=1');
    const ctrl = fireEvent.click(link, { ctrlKey: true });
    expect(ctrl).toBe(true);
    expect(screen.getByTestId('where').textContent).toBe('/a');
    await act(async () => {
      fireEvent.click(link);
    });
    expect(screen.getByTestId('where').textContent).toBe('/b?x=1');
    expect(screen.getByText('here').getAttribute('aria-current')).toBeNull();
  });

  it('builds each change of the query on the one before, and goes back', async () => {
    let setParams: ReturnType<typeof useSearchParams>[1] | undefined;
    let navigate: ReturnType<typeof useNavigate> | undefined;
    function Controls() {
      setParams = useSearchParams()[1];
      navigate = useNavigate();
      return null;
    }
    render(
      <MemoryRouter initialEntries={['/list?page=2']}>
        <Controls />
        <Where />
      </MemoryRouter>,
    );
    await act(async () => {
      setParams?.((previous) => {
        previous.set('a', '1');
        return previous;
      });
      setParams?.((previous) => {
        previous.set('b', '2');
        return previous;
      });
    });
    expect(screen.getByTestId('where').textContent).toBe('/list?page=2&a=1&b=2');
    await act(async () => navigate?.('?only=1'));
    expect(screen.getByTestId('where').textContent).toBe('/list?only=1');
    await act(async () => navigate?.(-1));
    expect(screen.getByTestId('where').textContent).toBe('/list?page=2&a=1&b=2');
  });

  it('redirects with Navigate, replacing the entry', async () => {
    window.history.replaceState(null, '', '/login');
    await act(async () => {
      render(
        <BrowserRouter>
          <Routes>
            <Route path="/login" element={<Navigate to="/" replace />} />
            <Route path="/" element={<span>home</span>} />
          </Routes>
        </BrowserRouter>,
      );
    });
    expect(window.location.pathname).toBe('/');
    expect(screen.getByText('home')).toBeTruthy();
  });
});
