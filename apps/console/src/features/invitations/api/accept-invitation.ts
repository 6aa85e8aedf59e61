import type { AcceptedInvitation } from '@cp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/invitations/{token}/accept: joins the signed-in user. 403 INVITATION_EMAIL_MISMATCH (the invited address,
 * masked, in `errors[0].message`) when another account is signed in.
 */
export const acceptInvitation = (token: string) =>
  api.post<AcceptedInvitation>(`/invitations/${encodeURIComponent(token)}/accept`);

export const useAcceptInvitation = (token: string) => useMutation({ mutationFn: () => acceptInvitation(token) });
