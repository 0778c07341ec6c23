import { describe, expect, it } from '@jest/globals';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { requestCookies, setCookie } from './cookies.js';

async function app() {
  const server = Fastify();
  await server.register(fastifyCookie);
  server.get('/read', async (request) => Object.fromEntries(requestCookies(request)));
  server.get('/write', async (_request, reply) => {
    setCookie(reply, 'svc_session', 'abc.def', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 900,
      domain: 'example.com',
    });
    setCookie(reply, 'svc_csrf', '', { httpOnly: false, sameSite: 'strict', path: '/x', maxAge: 0 });
    return {};
  });
  return server;
}

describe('cookies', () => {
  it('reads the Cookie header, the first of duplicate names winning', async () => {
    const server = await app();
    const response = await server.inject({
      method: 'GET',
      url: '/read',
      headers: { cookie: 'a=1; b=two; a=3' },
    });
    expect(response.json()).toEqual({ a: '1', b: 'two' });
    expect((await server.inject({ method: 'GET', url: '/read' })).json()).toEqual({});
    await server.close();
  });

  it('writes every cookie Secure with its path, lifetime, domain, HttpOnly and SameSite; Max-Age 0 deletes', async () => {
    const server = await app();
    const response = await server.inject({ method: 'GET', url: '/write' });
    expect(response.headers['set-cookie']).toEqual([
      'svc_session=abc.def; Max-Age=900; Domain=example.com; Path=/; HttpOnly; Secure; SameSite=Lax',
      'svc_csrf=; Max-Age=0; Path=/x; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; SameSite=Strict',
    ]);
    await server.close();
  });
});
