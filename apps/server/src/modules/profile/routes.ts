import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { OK_RESPONSE as ok } from '@sso/contracts/common';
import { profileChangeRequestSchema, type ProfileResponse } from '@sso/contracts/account';
import { japanDate } from '@sso/contracts/open-signup';
import type { UserAttributeResponse, UserResponse } from '@sso/contracts/user';
import type { Database } from '../../db/schema.ts';
import { memberPost } from '../oauth/member-post.ts';
import { parseOr901 } from '../../http/parse.ts';
import { route } from '../../http/route.ts';
import type { Clock } from '../../lib/clock.ts';
import { describeDevice } from '../../lib/device.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { currentUser } from '../oauth/current-user.ts';
import { memberAttributes, memberRecord } from './member-view.ts';
import { changeProfile, requireOpenProfile } from './profile-service.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface ProfileDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
}

/**
 * The member's own record (SPEC.md section 7, User: `/api/user`, `/api/user/attribute`) and the open
 * member's profile (SPEC.md sections 3, 5 and 7). Answers hold personal data: never cached.
 */
export function registerProfileRoutes(app: FastifyInstance, deps: ProfileDeps): void {
  // Bearer routes written by hand: route() declares the entry's scope in the route's config, as memberPost does (oauth/bearer.ts).
  route(app, 'POST /api/user', async (request, reply): Promise<UserResponse> => {
    const user = await currentUser(deps, request);
    reply.header('Cache-Control', 'no-store');
    return { ...ok, ...memberRecord(user) };
  });

  route(app, 'POST /api/user/attribute', async (request): Promise<UserAttributeResponse> => ({ ...ok, ...(await memberAttributes(deps, await currentUser(deps, request))) }));

  memberPost(app, deps, 'POST /api/user/profile', async ({ user }): Promise<ProfileResponse> => ({ ...ok, ...requireOpenProfile(user) }));

  // Not memberPost: a card member is refused (300) before the body is read. route() declares the entry's scope in the config, as memberPost does.
  route(app, 'POST /api/user/profile/change', async (request, reply) => {
    const user = await currentUser(deps, request);
    requireOpenProfile(user);
    // The age rule counts in days in Japan (SPEC.md section 5), on the server's clock.
    const input = parseOr901(profileChangeRequestSchema(japanDate(deps.clock.now())), request.body);
    await changeProfile(deps, user, input, describeDevice(request.headers['user-agent']));
    reply.header('Cache-Control', 'no-store');
    return ok;
  });
}
