/**
 * The baseline of bench/auth: a bare Fastify process answering one GET route with a fixed JSON
 * body (the same body the real route answers), with no database, no session and no hooks.
 * Prints `listening <url>` when ready. Run by bench/auth.ts; stops on SIGTERM.
 */
import Fastify from 'fastify';

const body = JSON.parse(process.env.BARE_BODY ?? '{"ok":true}') as unknown;
const app = Fastify({ logger: false });
app.get('/bare/', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
