import { savedSearchList, searchReportList } from '../../features/search/api/saved-searches';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointEntries, filterKind, type ListShape } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { sessionList } from '../../features/account/api/account';
import { alertList } from '../../features/alerts/api/alerts';
import { assetList, ipHostList } from '../../features/assets/api/assets';
import { companyList, unitList } from '../../features/companies/api/companies';
import { employeeList } from '../../features/employees/api/employees';
import { incidentList } from '../../features/incidents/api/incidents';
import { indicatorList } from '../../features/indicators/api/indicators';
import {
  endpointList,
  fileList,
  mailList,
  networkList,
  storedFileList,
} from '../../features/investigation/api/investigation';
import { committedActionList, matcherList } from '../../features/matchers/api/matchers';
import { ruleLists, thresholdList } from '../../features/rules/api/rules';
import { systemLogList } from '../../features/system-logs/api/system-logs';
import { productList, versionList } from '../../features/software/api/software';
import { rolesList, timelineList, userList } from '../../features/users/api/users';
import { snakeizeKeys, toSnakeCase } from '../http';
import { defineList } from './define';
import { readListState, type FilterKind, type ListDefinition } from './list';

const featuresDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../features');

/** Every list page's definition, with the filters only the page knows (turned into declared ones). */
const pages: { name: string; definition: ListDefinition<Record<string, FilterKind>>; pageFilters?: string[] }[] = [
  { name: 'alerts', definition: alertList, pageFilters: ['period'] },
  { name: 'incidents', definition: incidentList, pageFilters: ['period'] },
  { name: 'companies', definition: companyList },
  { name: 'units', definition: unitList },
  { name: 'users', definition: userList },
  { name: 'roles', definition: rolesList },
  { name: 'user timeline', definition: timelineList(1, 'timeline') },
  { name: 'user actions timeline', definition: timelineList(1, 'user_logs_timeline') },
  { name: 'sessions', definition: sessionList },
  { name: 'system logs', definition: systemLogList },
  { name: 'network events', definition: networkList },
  { name: 'endpoint events', definition: endpointList },
  { name: 'mail', definition: mailList },
  { name: 'files', definition: fileList, pageFilters: ['sha256'] },
  { name: 'stored files', definition: storedFileList, pageFilters: ['sha256'] },
  { name: 'policy indicators', definition: indicatorList },
  { name: 'assets', definition: assetList },
  { name: 'asset IP hosts', definition: ipHostList },
  { name: 'matchers', definition: matcherList },
  { name: 'committed actions', definition: committedActionList },
  { name: 'Suricata signatures', definition: ruleLists.suricata },
  { name: 'Sigma rules', definition: ruleLists.sigma },
  { name: 'YARA signatures', definition: ruleLists.yara },
  { name: 'threshold.config entries', definition: thresholdList },
  { name: 'employees', definition: employeeList },
  { name: 'software products', definition: productList },
  { name: 'software versions', definition: versionList },
  { name: 'saved searches', definition: savedSearchList },
  { name: 'search reports', definition: searchReportList },
];

function declarationOf(definition: ListDefinition<Record<string, FilterKind>>): ListShape {
  const found = endpointEntries().find(({ spec }) => spec.method === 'POST' && spec.path === definition.endpoint.path);
  if (!found?.spec.listShape) throw new Error(`${definition.endpoint.path} is not a declared list endpoint`);
  return found.spec.listShape;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('list pages made from their declarations', () => {
  it.each(pages)('$name: basename, orderings and every filter’s URL kind are the declared ones', (page) => {
    const { definition } = page;
    const declared = declarationOf(definition);
    expect(definition.basename).toBe(declared.basename);
    expect(definition.orderable).toEqual(declared.orderings);
    expect(definition.defaultOrdering).toBe(declared.defaultOrdering.join(','));
    expect(definition.pageSizes).toContain(definition.defaultPageSize);

    const schemas = (declared.filters as unknown as { shape: Record<string, unknown> }).shape;
    const pageOnly = new Set(page.pageFilters ?? []);
    for (const [name, kind] of Object.entries(definition.filters)) {
      const apiName = toSnakeCase(name);
      if (pageOnly.has(name)) {
        expect(schemas, `${name} is the page's own filter, not a declared one`).not.toHaveProperty(apiName);
        continue;
      }
      expect(schemas, `${name} is declared`).toHaveProperty(apiName);
      // The kind the declaration's own schema gives (zod), not only what the generated client says.
      expect(kind, name).toBe(filterKind(schemas[apiName], apiName));
    }
  });

  it('covers every list page of the console, none written by hand', () => {
    const made: string[] = [];
    for (const file of sourceFiles(featuresDir)) {
      const text = readFileSync(file, 'utf8');
      const relative = path.relative(featuresDir, file);
      expect(text, `${relative} writes a list definition by hand`).not.toMatch(/satisfies ListDefinition|\borderable:/);
      for (const _ of text.matchAll(/\bdefineList\(/g)) made.push(relative);
    }
    // Each definition above is one defineList call (the timeline's call makes both timelines).
    expect(made.length).toBe(pages.length - 1);
  });

  it('shows the declared filters a page picks, omits the others, and adds the page’s own', () => {
    expect(Object.keys(companyList.filters).sort()).toEqual(['isActive', 'kind', 'search']);
    expect(userList.filters).not.toHaveProperty('id');
    expect(alertList.filters).toMatchObject({ period: 'string', status: 'strings', unassigned: 'boolean' });
    expect(fileList.filters).toEqual({
      search: 'string',
      detectedType: 'strings',
      verdict: 'string',
      source: 'strings',
      companyId: 'numbers',
      sha256: 'string',
    });
    expect(timelineList(7, 'timeline')).toMatchObject({ pathParams: { user: 7 }, filters: { search: 'string' } });
  });

  it('reads a shared address into a state whose filters the declared schema accepts', () => {
    const address = new URLSearchParams(
      'action=create&action=delete&object_type=user&user_id=3&user_id=x&date_time_from=2026-11-01T00:00:00Z' +
        '&ordering=-username&page_size=100&page=2&object_id=7',
    );
    const state = readListState(systemLogList, address);
    expect(state).toEqual({
      page: 2,
      pageSize: 100,
      ordering: '-username',
      // object_id is declared but not shown by the page: the address cannot set it.
      filters: {
        action: ['create', 'delete'],
        objectType: ['user'],
        userId: [3],
        dateTimeFrom: '2026-11-01T00:00:00Z',
      },
    });
    expect(declarationOf(systemLogList).filters.safeParse(snakeizeKeys(state.filters)).success).toBe(true);

    const users = readListState(userList, new URLSearchParams('archived=true&company_id=4&role_id=2&ordering=id'));
    expect(users).toMatchObject({ ordering: 'id', filters: { archived: true, companyId: [4], roleId: [2] } });
    expect(declarationOf(userList).filters.safeParse(snakeizeKeys(users.filters)).success).toBe(true);
    // An ordering the list does not declare falls back to the declared default.
    expect(readListState(rolesList, new URLSearchParams('ordering=colour')).ordering).toBe('name');
  });

  it('refuses a filter the list does not declare', () => {
    expect(() =>
      defineList(sessionList.endpoint as Parameters<typeof defineList>[0], {
        pageSizes: [25],
        defaultPageSize: 25,
        pick: ['nonsense' as never],
      }),
    ).toThrow(/declares no filter nonsense/);
  });
});
