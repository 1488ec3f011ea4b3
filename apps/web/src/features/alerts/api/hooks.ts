import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSignedInUser } from '../../../lib/session';
import { alertKeys, fetchAssignableUsers, searchIncidents, type AssignableUser } from './alerts';

const LOOKUP_STALE_MS = 60_000;

/** Users alerts may be given to (active users in the caller's scope), by id for names in rows. */
export function useAssignableUsers() {
  const query = useQuery({
    queryKey: alertKeys.users,
    queryFn: ({ signal }) => fetchAssignableUsers(signal),
    staleTime: LOOKUP_STALE_MS,
  });
  return useMemo(() => {
    const users: AssignableUser[] = (query.data ?? []) as AssignableUser[];
    return { users, byId: new Map(users.map((user) => [user.id, user])), loading: query.isLoading };
  }, [query.data, query.isLoading]);
}

/** A user's display name: the full name, else the username, else `#id`. */
export function userLabel(user: AssignableUser | undefined, id: number): string {
  if (!user) return `#${id}`;
  return user.fullName.trim() || user.username;
}

/** Names of the caller's companies, by id. */
export function useCompanyNames(): { byId: Map<number, string>; many: boolean } {
  const me = useSignedInUser();
  return useMemo(
    () => ({
      byId: new Map(me.companies.map((company) => [company.id, company.name])),
      many: me.companies.length > 1 || me.allCompanies === true,
    }),
    [me.companies, me.allCompanies],
  );
}

/** Open incidents matching a search, for the "add to incident" picker. */
export function useIncidentSearch(search: string, enabled: boolean) {
  return useQuery({
    queryKey: alertKeys.incidents(search),
    queryFn: ({ signal }) => searchIncidents(search, signal),
    enabled,
    staleTime: 10_000,
    placeholderData: (previous) => previous,
  });
}
