import type { PublicConfig } from '@cp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { withCatalogue } from './api-error.ts';

/** GET /api/config: public runtime addresses (account center, organization creation, password change). */
export const getPublicConfig = () => withCatalogue('catalogue.getConfig', api.get<PublicConfig>('/config'));

export const publicConfigQuery = () =>
  queryOptions({ queryKey: ['config'], queryFn: getPublicConfig, staleTime: Number.POSITIVE_INFINITY });

export const usePublicConfig = () => useQuery(publicConfigQuery());

/** Where the account center sends the user back: a silent sign-in that picks up new organizations. */
export function syncReturnUrl(origin: string = window.location.origin): string {
  return `${origin}/oauth/socious?sync=1`;
}

/** Appends `return_to` to an account-center address (`&` when it already has a query). */
export function withReturnTo(url: string, origin: string = window.location.origin): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}return_to=${encodeURIComponent(syncReturnUrl(origin))}`;
}
