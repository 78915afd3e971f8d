import { fastifyCookie, type SerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../lib/secrets.ts';

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

/** The shape of a cookie value the server makes (randomToken: 256 bits, base64url). */
const RANDOM_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The browser's random cookie `name` when it holds a well-formed one; anything else is none. */
export const heldRandomCookie = (request: FastifyRequest, name: string): string | undefined => {
  const value = readCookie(request, name);
  return value !== undefined && RANDOM_VALUE.test(value) ? value : undefined;
};

/**
 * The browser's random cookie `name`, or, for a browser without a well-formed one, a new one of 256
 * random bits set on the answer: HttpOnly always, the rest as `options` say.
 */
export function randomCookie(request: FastifyRequest, reply: FastifyReply, name: string, options: Omit<SerializeOptions, 'httpOnly'>): string {
  const held = heldRandomCookie(request, name);
  if (held !== undefined) return held;
  const value = randomToken(32);
  setCookie(reply, name, value, { ...options, httpOnly: true });
  return value;
}
