/**
 * The runtime's floor on this machine: what an API built on the product's stack (Node, Fastify with the form
 * parser, node-postgres) costs per request when it does nothing but what a presentation's response must do
 * at the least: receive a ~4 KB form post, run the same number of SQL statements (autocommit round trips on
 * a small indexed table: read by key, update by key with RETURNING, insert, update) and, with
 * `--crypto true`, the response's bare cryptography on node:crypto (import the attempt's key and the wallet's
 * ephemeral key, ECDH, import the holder key, two ES256 checks), then answer a small JSON.
 *
 *   node_modules/.bin/tsx bench/runtime-floor.bench.ts [--requests 20000] [--concurrency 16] [--statements 4] [--crypto true]
 *
 * With `--shape claim`, one operation is a claim's shape instead (compare with `issuance.bench.ts`'s claims): the
 * wallet's four requests in turn, as the OpenID4VCI pre-authorized flow makes them, with one autocommit statement
 * each where the product has one: GET the offer (read by key), POST the token form (update by key with
 * RETURNING), POST for a nonce (an HMAC, no statement: the product's nonce is stateless), then the load generator
 * signs the key proof (ES256, node:crypto) and POSTs the credential request (with `--crypto true` the claim's bare
 * cryptography: import the proof's key, check it, sign the credential; and one statement that reads the offer and
 * inserts the claim, as the product's claim statement does). Three statements and four HTTP exchanges per claim,
 * against the product's 3.2; `--requests` counts claims.
 *
 * The server runs in a child process of its own on a fresh PostgreSQL database (as the API in the other HTTP
 * benchmarks); this process is the load generator (the same undici client). Printed: requests/s, p50/p95, and
 * the CPU per request of the server, PostgreSQL and the load generator (`cpuMeter`, /proc), with the rate at
 * which they fill two cores. Compare with `verification.bench.ts` in the same minutes: the difference between
 * the two servers' CPU per request is what the product's own code costs above this floor.
 */
import { fork } from 'node:child_process';
import { createHmac, createSecretKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import pg from 'pg';
import {
  type ApiServer,
  cpuBudgetLine,
  cpuMeter,
  createDatabase,
  freePort,
  httpClient,
  loadLine,
  machineLine,
  ms,
  num,
  parseArgs,
  percentile,
  print,
  protocolCryptoMs,
  protocolCryptoStep,
  runConcurrent,
  transactionCount,
} from './support/bench.ts';
import { answerEventLoopQuestions, eventLoopLine, measureEventLoop } from './support/event-loop.ts';

const args = parseArgs({
  requests: '20000',
  concurrency: '16',
  statements: '4',
  crypto: 'false',
  shape: 'presentation',
});
if (args.shape !== 'presentation' && args.shape !== 'claim') throw new Error('--shape is presentation or claim');
const claimShape = args.shape === 'claim';

if (process.env.FLOOR_SERVER) {
  // The server: one route, `statements` autocommit statements per request (a pool of 10, as the API's).
  const statements = Number(process.env.FLOOR_STATEMENTS);
  const withCrypto = process.env.FLOOR_CRYPTO === 'true';
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const presentationCrypto = protocolCryptoStep('presentation');
  const claimCrypto = protocolCryptoStep('claim');
  const nonceKey = createSecretKey(randomBytes(32));
  const queries = [
    { name: 'floor_read', text: 'select id, state, payload from floor_attempts where id = $1' },
    { name: 'floor_claim', text: 'update floor_attempts set state = state + 1 where id = $1 returning state' },
    { name: 'floor_insert', text: 'insert into floor_results (attempt_id, result) values ($1, $2)' },
    { name: 'floor_finish', text: 'update floor_attempts set finished_at = now() where id = $1' },
  ];
  // A claim's credential step: the offer read and the claim written in one statement, as the product's.
  const claimQuery = {
    name: 'floor_claim_credential',
    text: `with offer as (select id, payload from floor_attempts where id = $1),
             claim as (insert into floor_results (attempt_id, result) select id, $2 from offer returning attempt_id)
           select offer.payload, claim.attempt_id from offer left join claim on true`,
  };
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(formbody);
  app.post<{ Params: { id: string }; Body: { response?: string } }>('/floor/:id', async (request, reply) => {
    const id = Number(request.params.id) % 1000;
    if (typeof request.body?.response !== 'string') return reply.code(400).send({ error: 'invalid_request' });
    // The presentation's bare cryptography (throws, and so answers 500, should a signature not verify).
    if (withCrypto) presentationCrypto();
    for (let i = 0; i < statements; i++) {
      const query = queries[i % queries.length]!;
      await pool.query({
        name: query.name,
        text: query.text,
        values: query.name === 'floor_insert' ? [id, 'VERIFIED'] : [id],
      });
    }
    return { redirect_uri: `https://verifier.example/done/${id}` };
  });
  // A claim's shape: its four exchanges, one statement where the product has one (see the header).
  const credentialText = randomBytes(1200).toString('base64url');
  app.get<{ Params: { id: string } }>('/floor/offer/:id', async (request) => {
    const id = Number(request.params.id) % 1000;
    const { rows } = await pool.query({ ...queries[0]!, values: [id] });
    return {
      credential_issuer: 'https://issuer.example',
      credential_configuration_ids: ['employee_badge_dc_sd_jwt'],
      grants: {
        'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': `${id}.${rows[0].state}` },
      },
    };
  });
  app.post<{ Body: Record<string, string | undefined> }>('/floor/token', async (request, reply) => {
    const code = request.body?.['pre-authorized_code'];
    if (typeof code !== 'string') return reply.code(400).send({ error: 'invalid_request' });
    const id = Number(code.split('.')[0]) % 1000;
    await pool.query({ ...queries[1]!, values: [id] });
    return { access_token: `${id}.${randomBytes(32).toString('base64url')}`, token_type: 'Bearer', expires_in: 300 };
  });
  app.post('/floor/nonce', async (_request, reply) => {
    const issued = String(Date.now());
    reply.header('cache-control', 'no-store');
    return { c_nonce: `${issued}.${createHmac('sha256', nonceKey).update(issued).digest('base64url')}` };
  });
  app.post<{ Body: { proofs?: { jwt?: string[] } } }>('/floor/credential', async (request, reply) => {
    const token = request.headers.authorization?.slice('Bearer '.length) ?? '';
    if (typeof request.body?.proofs?.jwt?.[0] !== 'string') return reply.code(400).send({ error: 'invalid_proof' });
    const id = Number(token.split('.')[0]) % 1000;
    if (withCrypto) claimCrypto();
    await pool.query({ ...claimQuery, values: [id, 'CLAIMED'] });
    return { credentials: [{ credential: credentialText }] };
  });
  await pool.query(`create table if not exists floor_attempts (id int primary key, state int not null default 0,
    payload text not null, finished_at timestamptz)`);
  await pool.query(`create table if not exists floor_results (id bigserial primary key, attempt_id int not null,
    result text not null, created_at timestamptz not null default now())`);
  await pool.query(`insert into floor_attempts (id, payload) select g, repeat('x', 200) from generate_series(0, 999) g
    on conflict do nothing`);
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  answerEventLoopQuestions();
  process.send?.({ type: 'ready' });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'stop') return;
    await app.close();
    await pool.end();
    process.exit(0);
  });
} else {
  const count = Number(args.requests);
  const concurrency = Number(args.concurrency);
  print(machineLine());
  const database = await createDatabase();
  const port = await freePort();
  const child = fork(process.argv[1]!, [], {
    execArgv: process.execArgv,
    env: {
      ...process.env,
      FLOOR_SERVER: '1',
      FLOOR_STATEMENTS: args.statements,
      FLOOR_CRYPTO: args.crypto,
      PORT: String(port),
      DATABASE_URL: database.url,
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)));
    child.on('message', (message: { type: string }) => message.type === 'ready' && resolve());
  });
  child.removeAllListeners('exit');
  const http = httpClient(`http://127.0.0.1:${port}`, concurrency);
  // A response's size: an encrypted SD-JWT VC presentation is 3-5 KB of base64url.
  const form = { response: randomBytes(3000).toString('base64url'), state: randomBytes(16).toString('hex') };
  const expectOk = <T extends { status: number; text: string }>(step: string, response: T) => {
    if (response.status !== 200) throw new Error(`floor ${step}: ${response.status} ${response.text}`);
    return response;
  };
  // The wallet's side of a claim: its four requests and the key proof it signs (node:crypto, as cheap as it gets).
  const wallet = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const claim = async (i: number) => {
    const offer = expectOk('offer', await http.request(`/floor/offer/${i}`)).json();
    const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    const token = expectOk(
      'token',
      await http.request('/floor/token', {
        form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code },
      }),
    ).json();
    const nonce = expectOk('nonce', await http.request('/floor/nonce', { method: 'POST' })).json();
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'openid4vci-proof+jwt' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ aud: offer.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: nonce.c_nonce }),
    ).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), {
      key: wallet.privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
    const credential = expectOk(
      'credential',
      await http.request('/floor/credential', {
        headers: { authorization: `Bearer ${token.access_token}` },
        json: {
          credential_configuration_id: offer.credential_configuration_ids[0],
          proofs: { jwt: [`${header}.${payload}.${signature}`] },
        },
      }),
    ).json();
    if (typeof credential.credentials[0].credential !== 'string') throw new Error('floor credential: no credential');
  };
  const fire = (n: number) =>
    runConcurrent(
      n,
      concurrency,
      claimShape
        ? claim
        : async (i) => {
            expectOk('response', await http.request(`/floor/${i}`, { form }));
          },
    );
  try {
    await fire(Math.min(2000, count)); // warm-up (JIT, pool)
    const meter = await cpuMeter({ pids: [child.pid!], databaseUrl: database.url } as ApiServer);
    const txBefore = await transactionCount(database.url);
    print(loadLine());
    print(
      claimShape
        ? `floor: ${num(count)} claims × (GET offer, POST token, POST nonce, proof, POST credential), 3 statements${args.crypto === 'true' ? " + the claim's bare cryptography" : ''}, ${concurrency} in flight…`
        : `floor: ${num(count)} × POST (≈ 4 KB form), ${args.statements} statements${args.crypto === 'true' ? ' + the bare cryptography' : ''}, ${concurrency} in flight…`,
    );
    const {
      result: { result: run, eventLoop },
      cpu,
    } = await meter.measure(count, () => measureEventLoop(child, () => fire(count)));
    await meter.close();
    print(loadLine());
    if (run.failures > 0) throw run.firstError;
    const txPerRequest = ((await transactionCount(database.url)) - txBefore) / count;
    print('');
    const unit = claimShape ? 'claim' : 'request';
    print(`| ${unit}s | in flight | statements | cryptography | wall time | ${unit}s/s | p50 | p95 | p99 |`);
    print('|---|---|---|---|---|---|---|---|---|');
    print(
      `| ${num(count)} | ${concurrency} | ${claimShape ? 3 : args.statements} (${txPerRequest.toFixed(1)} measured) | ${args.crypto === 'true' ? 'yes' : 'no'} | ${run.seconds.toFixed(2)} s | ${num(run.perSecond)} | ${ms(percentile(run.latencies, 50))} | ${ms(percentile(run.latencies, 95))} | ${ms(percentile(run.latencies, 99))} |`,
    );
    print(
      cpuBudgetLine(
        `${unit} (floor server)`,
        cpu,
        args.crypto === 'true' ? undefined : protocolCryptoMs(claimShape ? 'claim' : 'presentation'),
      ),
    );
    print(eventLoopLine("the floor server's event loop", eventLoop, count, unit));
  } finally {
    await http.close();
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send({ type: 'stop' });
    });
    await database.drop();
  }
}
