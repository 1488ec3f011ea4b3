export {
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
} from './router';
export type { LinkProps, Location, NavigateFunction, NavigateOptions, RouteProps } from './router';
