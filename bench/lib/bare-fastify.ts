import Fastify from 'fastify';

/**
 * The bare Fastify ceiling (docs/performance.md): a server process with one route that answers a
 * JSON body the size of a token response, doing no work at all (no parsing of a form, no database,
 * no hashing). Whatever the product's token endpoints reach is measured against what this reaches
 * on the same machine in the same run. Started by bench/lib/ceilings.ts as a child process, like
 * the product server, so that it does not share the load driver's event loop; it prints its port
 * and runs until killed.
 */
const size = Number(process.argv[2] ?? '600');
const filler = 'x'.repeat(Math.max(0, size - 60));
const body = JSON.stringify({ access_token: filler, token_type: 'Bearer', expires_in: 3600 });

const app = Fastify({ logger: false });
app.get('/token', (_request, reply) => {
  void reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, bytes: body.length })}\n`);
