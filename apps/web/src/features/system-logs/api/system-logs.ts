import type { ListAnswer, SystemLog, SystemLogFilters } from '@vigil/contract';
import { apiRequest, sameOriginPath } from '../../../lib/api-client';

export const SYSTEM_LOG_PAGE_SIZE = 50;

/** The link of the first page of the audit log, newest first. */
export function firstSystemLogPage(pageSize = SYSTEM_LOG_PAGE_SIZE): string {
  const query = new URLSearchParams({ page: '1', page_size: String(pageSize), ordering: '-date_time' });
  return `/api/system_logs/check/?${query.toString()}`;
}

/**
 * Fetches one page. `link` is the first page's or an answer's `next`/`previous`; the same filters go
 * in the body of every page so the pages belong to one list.
 */
export function fetchSystemLogPage(link: string, filters: SystemLogFilters): Promise<ListAnswer<SystemLog>> {
  return apiRequest<ListAnswer<SystemLog>>('POST', sameOriginPath(link), filters);
}

/** The page number and size a list link carries, to say "51–100 of 240". */
export function pageOf(link: string): { page: number; pageSize: number } {
  const query = new URL(link, window.location.href).searchParams;
  const page = Number.parseInt(query.get('page') ?? '', 10);
  const pageSize = Number.parseInt(query.get('page_size') ?? '', 10);
  return {
    page: page > 0 ? page : 1,
    pageSize: pageSize > 0 ? pageSize : SYSTEM_LOG_PAGE_SIZE,
  };
}
