import type { PublicInvitation } from '@cp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const invitationKey = (token: string) => ['invitation', token] as const;

/** GET /api/invitations/{token} (public): 404 unknown link, 410 expired, used or revoked. */
export const getInvitation = (token: string) => api.get<PublicInvitation>(`/invitations/${encodeURIComponent(token)}`);

/** Not retried: a 404 or 410 is the answer, not a hiccup. */
export const useInvitation = (token: string) =>
  useQuery({ queryKey: invitationKey(token), queryFn: () => getInvitation(token), retry: false });
