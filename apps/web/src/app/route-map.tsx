import {
  IconAlertTriangle,
  IconBook,
  IconBuildingSkyscraper,
  IconBulb,
  IconChartDots3,
  IconDatabase,
  IconFileSearch,
  IconHeadset,
  IconLayoutDashboard,
  IconSearch,
  IconSettings,
  IconShieldExclamation,
  IconUser,
  IconWand,
  type Icon,
} from '@tabler/icons-react';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, LazyExoticComponent } from 'react';
import { prefetchAlertQueue } from '../features/alerts/api/prefetch';
import type { PermissionCheck } from '../lib/permissions';
import { lazyPage } from './lazy-page';
import type { en } from '../lib/i18n/locales/en';

export type NavKey = keyof (typeof en)['nav'];

/** One page of the console. */
export interface PageRoute {
  /** Unique, stable; also the `nav.*` translation key of its title. */
  id: NavKey;
  /** Router path (may have parameters, `:id`). */
  path: string;
  /** What the user must be allowed to open it; the menu hides it and a direct link shows "no access". */
  permission?: PermissionCheck;
  /**
   * The page component, loaded on demand. Routes without one are sections the product has but that are
   * not built yet: hidden from the menu, and a link to one says so ("not available yet").
   */
  page?: LazyExoticComponent<ComponentType>;
  /** `headless`: rendered without sidebar and header, under /headless-chrome (reports, PDFs). */
  layout?: 'main' | 'headless';
  /** Listed in the sidebar (details pages with parameters are not). Default true for main pages without parameters. */
  menu?: boolean;
  /** Starts reading the page's data from the URL while its code still loads. */
  prefetch?: (client: QueryClient, search: URLSearchParams) => void;
}

export interface NavSection {
  id: NavKey;
  icon: Icon;
  routes: readonly PageRoute[];
}

const view = (subject: PermissionCheck['subject']): PermissionCheck => ({ action: 'view', subject });

/** The pages that exist. Add a page: write it under features/<name>/, then set `page` on its route below. */
const SearchPage = lazyPage(
  () => import('../features/search/components/search-page'),
  ['search', 'investigation', 'endpointActions', 'triage', 'list', 'users'],
);
const SavedSearchesPage = lazyPage(
  () => import('../features/search/components/saved-searches-page'),
  ['search', 'list', 'users'],
);
const SearchReportsPage = lazyPage(
  () => import('../features/search/components/search-reports-page'),
  ['search', 'list'],
);
const SearchReportPage = lazyPage(() => import('../features/search/components/search-report-page'), ['search', 'list']);
const SystemLogPage = lazyPage(
  () => import('../features/system-logs/components/system-log-page'),
  ['systemLogs', 'list'],
);
const ProfilePage = lazyPage(() => import('../features/account/components/profile-page'), ['profile', 'users']);
const SessionsPage = lazyPage(() => import('../features/account/components/sessions-page'), ['sessions', 'list']);
const UsersPage = lazyPage(() => import('../features/users/components/users-page'), ['users', 'list']);
const UserPage = lazyPage(() => import('../features/users/components/user-page'), ['users', 'systemLogs', 'list']);
const RolesPage = lazyPage(() => import('../features/users/components/roles-page'), ['roles', 'users', 'list']);
const CompaniesPage = lazyPage(
  () => import('../features/companies/components/companies-page'),
  ['companies', 'list', 'users'],
);
const UnitsPage = lazyPage(() => import('../features/companies/components/units-page'), ['units', 'users', 'list']);
const IncidentsPage = lazyPage(
  () => import('../features/incidents/components/incidents-page'),
  ['incidents', 'triage', 'users', 'list'],
);
const IncidentPage = lazyPage(
  () => import('../features/incidents/components/incident-page'),
  ['incidents', 'triage', 'users', 'list'],
);
const DashboardPage = lazyPage(
  () => import('../features/dashboard/components/dashboard-page'),
  ['dashboard', 'triage', 'list'],
);
const GraphPage = lazyPage(() => import('../features/graph/components/graph-page'), ['graph', 'triage', 'list']);
const AlertsPage = lazyPage(() => import('../features/alerts/components/alerts-page'), ['alerts', 'triage', 'list']);
const AlertPage = lazyPage(
  () => import('../features/alerts/components/alert-page'),
  ['alerts', 'triage', 'list', 'indicators'],
);
const NetworkPage = lazyPage(
  () => import('../features/investigation/components/network-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);
const EndpointEventsPage = lazyPage(
  () => import('../features/investigation/components/endpoint-events-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);
const MailListPage = lazyPage(
  () => import('../features/investigation/components/mail-list-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);
const MailMessagePage = lazyPage(
  () => import('../features/investigation/components/mail-message-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);
const FilesPage = lazyPage(
  () => import('../features/investigation/components/files-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);
const StoredFilesPage = lazyPage(
  () => import('../features/investigation/components/stored-files-page'),
  ['investigation', 'endpointActions', 'triage', 'list'],
);

const AssetsPage = lazyPage(
  () => import('../features/assets/components/assets-page'),
  ['assets', 'triage', 'users', 'list'],
);
const AssetPage = lazyPage(
  () => import('../features/assets/components/asset-page'),
  ['assets', 'triage', 'users', 'list'],
);
const IpHostsPage = lazyPage(() => import('../features/assets/components/ip-hosts-page'), ['assets', 'triage', 'list']);
const EmployeesPage = lazyPage(
  () => import('../features/employees/components/employees-page'),
  ['employees', 'list', 'users'],
);
const EmployeePage = lazyPage(
  () => import('../features/employees/components/employee-page'),
  ['employees', 'triage', 'endpointActions', 'list', 'users'],
);
const SoftwarePage = lazyPage(() => import('../features/software/components/software-page'), ['software', 'list']);
const SoftwareVersionsPage = lazyPage(
  () => import('../features/software/components/software-versions-page'),
  ['software', 'list'],
);
const SoftwareProductPage = lazyPage(
  () => import('../features/software/components/software-product-page'),
  ['software', 'list'],
);

const IndicatorsPage = lazyPage(
  () => import('../features/indicators/components/indicators-page'),
  ['indicators', 'triage', 'users', 'list'],
);
const MatchersPage = lazyPage(
  () => import('../features/matchers/components/matchers-page'),
  ['matchers', 'triage', 'list'],
);
const MatcherLogPage = lazyPage(
  () => import('../features/matchers/components/matcher-log'),
  ['matchers', 'triage', 'list'],
);
const RulesPage = lazyPage(() => import('../features/rules/components/rules-page'), ['rules', 'triage', 'list']);
const RulePage = lazyPage(() => import('../features/rules/components/rule-page'), ['rules', 'triage', 'list']);
const ThresholdsPage = lazyPage(() => import('../features/rules/components/thresholds-page'), ['rules', 'list']);
const MatcherPage = lazyPage(
  () => import('../features/matchers/components/matcher-page'),
  ['matchers', 'triage', 'list'],
);

/**
 * The route map: every section and page of the console, in menu order. It drives the router, the
 * sidebar and the permission checks.
 */
export const routeMap: readonly NavSection[] = [
  {
    id: 'dashboard',
    icon: IconLayoutDashboard,
    routes: [{ id: 'dashboard', path: '/dashboard', permission: view('widgets'), page: DashboardPage }],
  },
  {
    id: 'graph',
    icon: IconChartDots3,
    routes: [{ id: 'graph', path: '/graph', permission: view('alerts'), page: GraphPage }],
  },
  {
    id: 'alerts',
    icon: IconAlertTriangle,
    routes: [
      { id: 'alerts', path: '/alerts', permission: view('alerts'), page: AlertsPage, prefetch: prefetchAlertQueue },
      { id: 'alertDetails', path: '/alerts/:id', permission: view('alerts'), page: AlertPage },
    ],
  },
  {
    id: 'incidents',
    icon: IconShieldExclamation,
    routes: [
      { id: 'incidents', path: '/incidents', permission: view('incidents'), page: IncidentsPage },
      { id: 'incidentDetails', path: '/incidents/:id', permission: view('incidents'), page: IncidentPage },
    ],
  },
  {
    id: 'investigation',
    icon: IconFileSearch,
    routes: [
      { id: 'emails', path: '/investigation/emails', permission: view('mailing'), page: MailListPage },
      { id: 'emailDetails', path: '/investigation/emails/:id', permission: view('mailing'), page: MailMessagePage },
      {
        id: 'endpointEvents',
        path: '/investigation/endpoint-events',
        permission: view('eclipse_events'),
        page: EndpointEventsPage,
      },
      { id: 'files', path: '/investigation/files', permission: view('warehouse/hashes'), page: FilesPage },
      { id: 'network', path: '/investigation/network', permission: view('network'), page: NetworkPage },
    ],
  },
  {
    id: 'myCompany',
    icon: IconBuildingSkyscraper,
    routes: [
      { id: 'assets', path: '/my-company/assets', permission: view('assets'), page: AssetsPage },
      { id: 'assetDetails', path: '/my-company/assets/:id', permission: view('assets'), page: AssetPage },
      {
        id: 'assetIpHosts',
        path: '/my-company/asset-ip-hosts',
        permission: view('assets/ip_hosts'),
        page: IpHostsPage,
      },
      { id: 'employees', path: '/my-company/employees', permission: view('employees'), page: EmployeesPage },
      {
        id: 'employeeDetails',
        path: '/my-company/employees/:id',
        permission: view('employees'),
        page: EmployeePage,
      },
      { id: 'software', path: '/my-company/software', permission: view('software'), page: SoftwarePage },
      {
        id: 'softwareVersions',
        path: '/my-company/software/versions',
        permission: view('software/versions'),
        page: SoftwareVersionsPage,
        menu: false,
      },
      {
        id: 'softwareDetails',
        path: '/my-company/software/:id',
        permission: view('software'),
        page: SoftwareProductPage,
      },
    ],
  },
  {
    id: 'warehouse',
    icon: IconDatabase,
    routes: [
      { id: 'warehouse', path: '/warehouse', permission: view('warehouse'), page: StoredFilesPage },
      // The investigation's Files page: one page at two addresses, listed once in the menu.
      {
        id: 'warehouseHashes',
        path: '/warehouse/hashes',
        permission: view('warehouse/hashes'),
        page: FilesPage,
        menu: false,
      },
    ],
  },
  {
    id: 'searches',
    icon: IconSearch,
    routes: [
      { id: 'search', path: '/search', permission: view('search'), page: SearchPage },
      { id: 'savedSearches', path: '/searches', permission: view('search'), page: SavedSearchesPage },
      { id: 'searchReports', path: '/searches/reports', permission: view('search/reports'), page: SearchReportsPage },
      {
        id: 'searchReportDetails',
        path: '/searches/reports/:id',
        permission: view('search/reports'),
        page: SearchReportPage,
      },
      { id: 'complexReports', path: '/complex-reports', permission: view('complex-reports') },
      {
        id: 'complexReportPdf',
        path: '/headless-chrome/complex-reports/:id',
        permission: view('complex-reports'),
        layout: 'headless',
      },
      { id: 'polygonReport', path: '/polygon-reports/:id', permission: view('search/reports'), menu: false },
      {
        id: 'polygonReportPdf',
        path: '/headless-chrome/polygon-reports/:id',
        permission: view('search/reports'),
        layout: 'headless',
      },
    ],
  },
  {
    id: 'intelligence',
    icon: IconBulb,
    routes: [
      { id: 'tiReports', path: '/intelligence/reports', permission: view('ti/reports') },
      { id: 'threatArticle', path: '/intelligence/reports/:id', permission: view('ti/reports') },
      { id: 'hub', path: '/intelligence/hub', permission: view('hub') },
    ],
  },
  {
    id: 'documentation',
    icon: IconBook,
    routes: [
      { id: 'documentation', path: '/documentation' },
      { id: 'documentationPdf', path: '/headless-chrome/documentation', layout: 'headless' },
    ],
  },
  { id: 'serviceDesk', icon: IconHeadset, routes: [{ id: 'serviceDesk', path: '/service-desk' }] },
  {
    id: 'settings',
    icon: IconSettings,
    routes: [
      { id: 'units', path: '/settings/units', permission: view('companies'), page: UnitsPage },
      { id: 'users', path: '/settings/users', permission: view('users'), page: UsersPage },
      { id: 'roles', path: '/settings/users/roles', permission: view('users'), page: RolesPage, menu: false },
      { id: 'userDetails', path: '/settings/users/:id', permission: view('users'), page: UserPage },
      { id: 'companies', path: '/settings/companies', permission: view('companies'), page: CompaniesPage },
      { id: 'licences', path: '/settings/licences', permission: view('pki') },
      { id: 'appliances', path: '/settings/appliances', permission: view('appliances') },
      { id: 'applianceRequests', path: '/settings/appliance-requests', permission: view('appliances/requests') },
      { id: 'committedActions', path: '/settings/committed-actions', permission: view('matchers'), page: MatchersPage },
      {
        id: 'committedActionsLog',
        path: '/settings/committed-actions/log',
        permission: view('matchers'),
        page: MatcherLogPage,
        menu: false,
      },
      {
        id: 'matcherDetails',
        path: '/settings/committed-actions/:id',
        permission: view('matchers'),
        page: MatcherPage,
      },
      {
        id: 'policyIndicators',
        path: '/settings/policy-indicators',
        permission: view('indicators'),
        page: IndicatorsPage,
      },
      {
        id: 'suricataSignatures',
        path: '/settings/suricata-signatures',
        permission: view('rules/suricata'),
        page: RulesPage,
      },
      {
        id: 'suricataThresholds',
        path: '/settings/suricata-signatures/thresholds',
        permission: view('rules/suricata'),
        page: ThresholdsPage,
        menu: false,
      },
      {
        id: 'suricataSignatureDetails',
        path: '/settings/suricata-signatures/:id',
        permission: view('rules/suricata'),
        page: RulePage,
      },
      { id: 'sigmaRules', path: '/settings/sigma-rules', permission: view('rules/sigma'), page: RulesPage },
      { id: 'sigmaRuleDetails', path: '/settings/sigma-rules/:id', permission: view('rules/sigma'), page: RulePage },
      { id: 'yaraSignatures', path: '/settings/yara-signatures', permission: view('rules/yara'), page: RulesPage },
      {
        id: 'yaraSignatureDetails',
        path: '/settings/yara-signatures/:id',
        permission: view('rules/yara'),
        page: RulePage,
      },
      { id: 'systemLogs', path: '/settings/system-logs', permission: view('system_logs'), page: SystemLogPage },
    ],
  },
  {
    id: 'wizards',
    icon: IconWand,
    routes: [
      { id: 'sensorWizard', path: '/wizards/sensor', permission: view('wizards') },
      { id: 'huntpointWizard', path: '/wizards/huntpoint', permission: view('wizards') },
      { id: 'huntpointLinuxWizard', path: '/wizards/huntpoint-linux', permission: view('wizards') },
      { id: 'huntpointMacosWizard', path: '/wizards/huntpoint-macos', permission: view('wizards') },
      { id: 'polygonWizard', path: '/wizards/polygon', permission: view('wizards') },
      { id: 'atmosphereWizard', path: '/wizards/atmosphere', permission: view('wizards') },
      { id: 'neptunWizard', path: '/wizards/neptun', permission: view('wizards') },
    ],
  },
];

/** The user's own pages, reached from the user menu rather than the sidebar. */
export const userRoutes: readonly PageRoute[] = [
  { id: 'profile', path: '/profile', page: ProfilePage },
  { id: 'sessions', path: '/profile/sessions', page: SessionsPage },
];

export const profileIcon = IconUser;

export const allRoutes: readonly PageRoute[] = [...routeMap.flatMap((section) => section.routes), ...userRoutes];

/** Whether a route is a menu entry once built: no parameters, not headless, not left out on purpose. */
export function isListedRoute(route: PageRoute): boolean {
  return (route.menu ?? true) && route.layout !== 'headless' && !route.path.includes(':');
}

/** Whether a route belongs in the sidebar: it is listed and its page exists. */
export function isMenuRoute(route: PageRoute): boolean {
  return isListedRoute(route) && route.page !== undefined;
}

/** The menu section a route belongs to (none for the user's own pages). */
export function sectionOf(route: PageRoute): NavSection | undefined {
  return routeMap.find((section) => section.routes.includes(route));
}

export function findRoute(id: NavKey): PageRoute | undefined {
  return allRoutes.find((route) => route.id === id);
}
