import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { fetchAllRoles, fetchAllUnits, fetchRoleCatalog, fetchUser, userKeys, type Role, type Unit } from './users';

const LOOKUP_STALE_MS = 60_000;

/** Roles in scope, by id; refetched after any role change (the key is under `users`). */
export function useRoles() {
  const query = useQuery({
    queryKey: userKeys.roles,
    queryFn: ({ signal }) => fetchAllRoles(signal),
    staleTime: LOOKUP_STALE_MS,
  });
  return useMemo(() => {
    const roles: Role[] = query.data?.results ?? [];
    return { roles, byId: new Map(roles.map((role) => [role.id, role])), loading: query.isLoading };
  }, [query.data, query.isLoading]);
}

/** Units in scope, by id — only for users who may see units (they belong to company administration). */
export function useUnits() {
  const allowed = usePermission({ action: 'view', subject: 'companies' });
  const query = useQuery({
    queryKey: userKeys.units,
    queryFn: ({ signal }) => fetchAllUnits(signal),
    staleTime: LOOKUP_STALE_MS,
    enabled: allowed,
  });
  return useMemo(() => {
    const units: Unit[] = query.data?.results ?? [];
    return { units, byId: new Map(units.map((unit) => [unit.id, unit])), allowed };
  }, [query.data, allowed]);
}

export function useRoleCatalog() {
  return useQuery({
    queryKey: userKeys.catalog,
    queryFn: ({ signal }) => fetchRoleCatalog(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * What the signed-in administrator may grant beyond roles: superuser (only a superuser), all
 * companies (only someone who sees all companies). The current user's data does not say the
 * latter, so it is read from the administrator's own user record.
 */
export function useGrantRights(): { superuser: boolean; allCompanies: boolean; manyCompanies: boolean } {
  const me = useSignedInUser();
  const own = useQuery({
    queryKey: userKeys.detail(me.id),
    queryFn: ({ signal }) => fetchUser(me.id, signal),
    staleTime: LOOKUP_STALE_MS,
    enabled: !me.isSuperuser,
  });
  return {
    superuser: me.isSuperuser,
    allCompanies: me.isSuperuser || own.data?.allCompanies === true,
    manyCompanies: me.companies.length > 1,
  };
}
