import {
  checkQuery,
  MAX_SEARCH_EXPORT_ROWS,
  MAX_SEARCH_VALUES,
  parseQuery,
  SEARCH_VALUES_SAMPLE_ROWS,
  suggestedValueTypes,
  searchKinds,
  type QueryNode,
  type QueryProblem,
  type SearchAnswer,
  type SearchBody,
  type SearchHistogram,
  type SearchHit,
  type SearchKind,
  type SearchValuesAnswer,
  type SearchValuesBody,
} from '@vigil/contract';
import type { Database } from '../../db/database';
import { can, type Actor } from '../../http/actor';
import { forbidden, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { holdsPrivilegedFlag } from '../users/users.repository';
import { bucketRange, bucketWidth } from './search-buckets';
import { compileSearchQuery, fieldColumns, SearchCompileError } from './search-sql';
import { searchBuckets, searchPage, searchValues, type SearchScope } from './search.repository';

/** The permission basename of each kind: viewing its list is what searching it needs. */
export const kindBasenames: Record<SearchKind, string> = {
  network: 'network',
  endpoint: 'eclipse_events',
  mail: 'mailing',
  alerts: 'alerts',
};

/** A problem of the query as its field error: where (1-based) and what. */
const queryError = (problem: Pick<QueryProblem, 'position' | 'message'>) =>
  ValidationError.field('query', `At position ${problem.position + 1}: ${problem.message}`);

/**
 * The query read and checked for the kinds as `run/` checks it, every value compiled once, or the
 * 400 naming the position. Saved searches check theirs with it when they are saved.
 */
export function checkedQuery(query: string, kinds: readonly SearchKind[], now = new Date()): QueryNode | null {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw queryError(parsed.problem);
  const ast: QueryNode | null = parsed.ast;
  if (ast === null) return null;
  const problems = checkQuery(ast, [...kinds]);
  if (problems.length > 0) throw queryError(problems[0]!);
  try {
    for (const kind of kinds) compileSearchQuery(ast, kind, now);
  } catch (error) {
    if (error instanceof SearchCompileError) throw queryError(error);
    throw error;
  }
  return ast;
}

/** The kinds of the list the caller may not view (searching them needs their view permission). */
export function kindsRefused(actor: Actor, kinds: readonly SearchKind[]): SearchKind[] {
  return searchKinds.filter((kind) => kinds.includes(kind) && !can(actor, kindBasenames[kind], 'view'));
}

/** How far back `values/` reads when no time range is given. */
const VALUES_DEFAULT_DAYS = 7;

export interface SearchPaging {
  page: number;
  page_size: number;
  ordering: '-ts' | 'ts';
}

/** Searches over events and alerts, in the caller's scope and kinds. */
export class SearchService {
  constructor(private readonly db: Database) {}

  /** The checked query, the kinds the caller may view and the companies asked for, or the refusal. */
  private prepare(actor: Actor, body: SearchBody, now: Date): SearchScope {
    const parsed = parseQuery(body.query);
    if (!parsed.ok) throw queryError(parsed.problem);
    const ast: QueryNode | null = parsed.ast;
    if (ast !== null) {
      const problems = checkQuery(ast, body.kinds);
      if (problems.length > 0) throw queryError(problems[0]!);
    }
    const refused = kindsRefused(actor, body.kinds);
    if (refused.length > 0) throw forbidden(`You may not view ${refused.join(', ')}, so you cannot search them.`);
    const companies =
      body.company_id === undefined ? null : Array.isArray(body.company_id) ? body.company_id : [body.company_id];
    const outside = (companies ?? []).filter((id) => !inScope(actor.scope, id));
    if (outside.length > 0) {
      throw ValidationError.field(
        'company_id',
        outside.length === 1 ? `No company with id ${outside[0]}.` : `No companies with ids ${outside.join(', ')}.`,
      );
    }
    return {
      kinds: body.kinds,
      ast,
      scope: actor.scope,
      companies,
      from: new Date(body.from),
      to: new Date(body.to),
      now,
    };
  }

  /** Runs a compiled search step, turning a value the compiler refuses into the query's field error. */
  private async compiled<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof SearchCompileError) throw queryError(error);
      throw error;
    }
  }

  /** One page of hits with the count, and the links to the pages beside it (built from `url`). */
  async run(actor: Actor, body: SearchBody, paging: SearchPaging, url: string): Promise<SearchAnswer> {
    const search = this.prepare(actor, body, new Date());
    const { page, page_size: pageSize, ordering } = paging;
    const { hits, count } = await this.compiled(() =>
      searchPage(this.db, search, {
        descending: ordering === '-ts',
        limit: pageSize,
        offset: (page - 1) * pageSize,
      }),
    );
    const lastPage = Math.max(1, Math.ceil(count / pageSize));
    if (page > lastPage) {
      throw ValidationError.field(
        'page',
        count === 0
          ? `Page ${page} is past the end: nothing matches this search.`
          : `Page ${page} is past the end: there ${lastPage === 1 ? 'is 1 page' : `are ${lastPage} pages`}.`,
      );
    }
    const link = (target: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(target));
      next.searchParams.set('page_size', String(pageSize));
      next.searchParams.set('ordering', ordering);
      return next.toString();
    };
    return {
      results: hits,
      count,
      next: page < lastPage ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
    };
  }

  /**
   * The newest hits (up to MAX_SEARCH_EXPORT_ROWS) as a file: CSV with the event as a JSON column, or
   * JSON lines. Needs the `raw_export` privilege: the events leave the console whole.
   */
  async export(
    actor: Actor,
    body: SearchBody,
    format: 'csv' | 'json',
  ): Promise<{ content: string; truncated: boolean }> {
    if (!(await holdsPrivilegedFlag(this.db, actor.userId, 'raw_export'))) {
      throw forbidden('Exporting search hits needs the raw_export privilege.');
    }
    const search = this.prepare(actor, body, new Date());
    const { hits, count } = await this.compiled(() =>
      searchPage(this.db, search, { descending: true, limit: MAX_SEARCH_EXPORT_ROWS, offset: 0 }),
    );
    return { content: format === 'csv' ? hitsAsCsv(hits) : hitsAsJsonLines(hits), truncated: count > hits.length };
  }

  /**
   * The values a keyword, address or yes/no field takes most often in a sample of the range's newest
   * rows (the last 7 days by default) of each company in the caller's scope: what the query box
   * suggests after `field:`.
   */
  async values(actor: Actor, body: SearchValuesBody): Promise<SearchValuesAnswer> {
    if (kindsRefused(actor, [body.kind]).length > 0) {
      throw forbidden(`You may not view ${body.kind}, so you cannot search it.`);
    }
    const found = fieldColumns(body.kind, body.field);
    if (!found) throw ValidationError.field('field', `No field '${body.field}' in ${body.kind}.`);
    if (!suggestedValueTypes.includes(found.field.type)) {
      throw ValidationError.field(
        'field',
        `'${body.field}' is a ${found.field.type} field: values are suggested for keyword, ip and boolean fields only.`,
      );
    }
    const to = body.to ? new Date(body.to) : new Date();
    const from = body.from ? new Date(body.from) : new Date(to.getTime() - VALUES_DEFAULT_DAYS * 86_400_000);
    const values = await searchValues(this.db, {
      kind: body.kind,
      field: found.field,
      columns: found.columns,
      scope: actor.scope,
      from,
      to,
      prefix: body.prefix,
      sample: SEARCH_VALUES_SAMPLE_ROWS,
      limit: MAX_SEARCH_VALUES,
    });
    return { values };
  }

  /** Hits per bucket of a nice width over the time range, every bucket present, per kind. */
  async histogram(actor: Actor, body: SearchBody): Promise<SearchHistogram> {
    const search = this.prepare(actor, body, new Date());
    const width = bucketWidth(search.from, search.to);
    const counted = await this.compiled(() => searchBuckets(this.db, search, width));
    const buckets = new Map(
      bucketRange(search.from, search.to, width).map((bucket) => [
        bucket,
        {
          start: new Date(bucket * width * 1000).toISOString(),
          count: 0,
          // Every kind is named; those not searched stay 0.
          by_kind: Object.fromEntries(searchKinds.map((kind) => [kind, 0])) as Record<SearchKind, number>,
        },
      ]),
    );
    for (const { kind, bucket, count } of counted) {
      const found = buckets.get(bucket);
      if (!found) continue;
      found.count += count;
      found.by_kind[kind] += count;
    }
    return { interval_seconds: width, buckets: [...buckets.values()] };
  }
}

/** One CSV field: quoted, quotes doubled (every value here is ours or JSON, so none starts a formula). */
const csvField = (value: string | number) => `"${String(value).replaceAll('"', '""')}"`;

/** Hits as CSV: kind, id, company, time, and the event as JSON. */
export function hitsAsCsv(hits: readonly SearchHit[]): string {
  const lines = ['kind,id,company_id,ts,event'];
  for (const hit of hits) {
    lines.push([hit.kind, hit.id, hit.company_id, hit.ts, JSON.stringify(hit.event)].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Hits as JSON lines, one hit a line. */
export function hitsAsJsonLines(hits: readonly SearchHit[]): string {
  return hits.map((hit) => `${JSON.stringify(hit)}\n`).join('');
}
