import { useQuery } from '@tanstack/react-query';
import { userAttributeResponseSchema } from '@sso/contracts/user';
import { apiPost } from './api-client.ts';
import { CARDS_KEY } from './cards-query.ts';

/**
 * Whether the member is an open member (POST /api/user/attribute, is_user_open): open members add a
 * card through the holder check (docs/decisions/0006 and 0016). Under the cards' key, so that a card
 * change reads it again.
 */
export const useIsOpenMemberQuery = () =>
  useQuery({
    queryKey: [...CARDS_KEY, 'is-open-member'],
    queryFn: async ({ signal }) =>
      (await apiPost('/api/user/attribute', userAttributeResponseSchema, { auth: true, signal, what: 'user attribute' })).is_user_open,
    retry: false,
  });
