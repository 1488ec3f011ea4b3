/**
 * The floor of any Node HTTP answer built from SQL: a bare node:http process with a node-postgres
 * pool and nothing else (no framework, no session, no validation, no mapping). Each POST carries
 * `{ statements: [{ text, values }] }`; it runs them and answers `{ results: rows }` (of the last) as JSON. Prints
 * `listening <url>` when ready; stops on SIGTERM. Started by `startSqlFloor` (sql-floor.ts). Several
 * statements in one request run at once on the pool, as the list engine sends a count and a page.
 * Loopback only, for benchmarks: it runs whatever SQL it is sent.
 */
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { statements } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      statements: { text: string; values: unknown[] }[];
    };
    Promise.all(statements.map(({ text, values }) => pool.query({ text, values }))).then(
      (results) => {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ results: results.at(-1)?.rows ?? [] }));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      },
    );
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
