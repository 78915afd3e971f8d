import { useQuery } from '@tanstack/react-query';
import { userAttributeResponseSchema } from '@sso/contracts/user';
import { apiPost } from './api-client.ts';
import { CARDS_KEY } from './cards-query.ts';
import { checkShape } from './shape.ts';

/**
 * Whether the member is an open member (POST /api/user/attribute, is_user_open): open members add a
 * card through the holder check (docs/decisions/0006 and 0016). Under the cards' key, so that a card
 * change reads it again.
 */
export const useIsOpenMemberQuery = () =>
  useQuery({
    queryKey: [...CARDS_KEY, 'is-open-member'],
    queryFn: async ({ signal }) =>
      checkShape(userAttributeResponseSchema, await apiPost<unknown>('/api/user/attribute', { auth: true, signal }), 'user attribute').is_user_open,
    retry: false,
  });
