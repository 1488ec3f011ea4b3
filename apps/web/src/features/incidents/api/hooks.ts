import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import {
  fetchAssignableUsers,
  fetchIncident,
  fetchLinkedAlerts,
  incidentKeys,
  type AssignableUser,
  type IncidentDetail,
} from './incidents';

const LOOKUP_STALE_MS = 60_000;

export function useIncident(id: number) {
  return useQuery({
    queryKey: incidentKeys.detail(id),
    queryFn: ({ signal }) => fetchIncident(id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

export function useLinkedAlerts(id: number) {
  return useQuery({
    queryKey: incidentKeys.alerts(id),
    queryFn: ({ signal }) => fetchLinkedAlerts(id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

/** Users one may assign incidents and tasks to, by id. */
export function useAssignableUsers() {
  const query = useQuery({
    queryKey: incidentKeys.users,
    queryFn: ({ signal }) => fetchAssignableUsers(signal),
    staleTime: LOOKUP_STALE_MS,
  });
  return useMemo(() => {
    const users = query.data ?? [];
    return { users, byId: new Map(users.map((user) => [user.id, user])), loading: query.isLoading };
  }, [query.data, query.isLoading]);
}

/** How a user is named in pickers and lists: the full name, or the login when there is none. */
export const userName = (user: AssignableUser | undefined) => (user ? user.fullName.trim() || user.username : '');

/** After a change: puts a fresh detail in the cache (when the answer has one) and has lists and alerts read again. */
export function useIncidentRefresh(id: number) {
  const queryClient = useQueryClient();
  return useCallback(
    async (detail?: IncidentDetail) => {
      if (detail) queryClient.setQueryData(incidentKeys.detail(id), detail);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: incidentKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['alerts'] }),
      ]);
    },
    [queryClient, id],
  );
}
