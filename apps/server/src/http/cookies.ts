import { fastifyCookie, type SerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Cookies of the few endpoints that read or set one (the passkey sign-in's browser binding, the
 * sign-in notice's device cookie; decision 0024), with @fastify/cookie's parser and serializer but
 * without its plugin: the plugin's hooks would parse the Cookie header of every request, the hot
 * paths' included (docs/performance.md).
 */
export const readCookie = (request: FastifyRequest, name: string): string | undefined => {
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header)[name] : undefined;
};

/** Sets one cookie on the answer (HttpOnly and Secure are the caller's to ask for). */
export const setCookie = (reply: FastifyReply, name: string, value: string, options: SerializeOptions): void => {
  reply.header('set-cookie', fastifyCookie.serialize(name, value, options));
};
