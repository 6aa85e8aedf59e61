/**
 * Issuance benchmark: offers created and credentials claimed per second through the real HTTP API and
 * OpenID4VCI endpoints, against the raw ES256 signing rate of this machine.
 *
 *   node_modules/.bin/tsx bench/issuance.bench.ts [--offers 2000] [--concurrency 16] [--api-processes 1] [--claim holder|hand] [--profile] [--steps true]
 *
 * 1. Raw signing, in a child process of its own: ES256 signatures per second with the platform's signer
 *    (`signerFromPrivateJwk`, WebCrypto; one at a time and 64 in flight) and with node:crypto `sign`.
 * 2. The API (createRuntime + buildApp, as `npm start` runs it) in a child process on a fresh PostgreSQL
 *    database, listening on 127.0.0.1; this process is the load generator (undici, N requests in flight).
 *    - offers: `POST /api/credentials/with-recipient` then `GET /api/credentials/:id/connect` (the holder
 *      page, which creates the offer and answers its openid-credential-offer:// link);
 *    - claims: what a wallet does per offer, with @cp/holder (the wallet's own protocol library): fetch
 *      the offer by reference, token (pre-authorized code), nonce, sign the key proof, credential (checked:
 *      an SD-JWT VC bound to the holder key). The issuer and authorization-server metadata are resolved
 *      once (they are cacheable: max-age 60 / 300 s). Timed by hand by default (the same requests written
 *      out, with one untimed claim by @cp/holder first): the library costs the load generator 3.3 ms of CPU
 *      per claim against 1.0 ms (bench/RESULTS.md), which on two shared cores halves the figure; `--claim
 *      holder` times the library.
 *    - whole issuances per second: credentials over the two phases' wall time (offer created + claimed).
 * --api-processes N runs N API processes on the same database, requests spread over them in turn.
 * --profile samples the API's CPU (V8 profiler, as --cpu-prof) during each phase and prints where it went.
 * --steps true: then, on as many new offers, each of a claim's four requests as a phase of its own (all offers
 *   fetched, then all tokens, all nonces, all credentials): the API's and PostgreSQL's CPU and the API's event
 *   loop per request of each step, to tell which step the claim's cost is in.
 *
 * PostgreSQL: DATABASE_URL if set, else a fresh database on postgres://postgres@127.0.0.1:5432 (dropped).
 */
import { spawnSync } from 'node:child_process';
import { generateEs256KeyPair, type JwsSigner, signerFromPrivateJwk, signJwt } from '@cp/credentials';
import { nodeSigner } from '../apps/api/src/modules/organization-keys/key-store.ts';
import {
  apiEventLoopLine,
  cpuBudgetLine,
  cpuMeter,
  httpClient,
  loadLine,
  machineLine,
  ms,
  num,
  parseArgs,
  percentile,
  print,
  protocolCryptoMs,
  runConcurrent,
  startApiServer,
  transactionCount,
} from './support/bench.ts';
import { claimOffer, makeHolder, resolveIssuance } from './support/wallet.ts';

const args = parseArgs({
  'api-processes': '1',
  offers: '2000',
  concurrency: '16',
  'sign-seconds': '3',
  claim: 'hand',
  steps: 'false',
});
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

interface SignRates {
  webCryptoSerial: number;
  webCrypto64: number;
  nodeCrypto: number;
}

/** ES256 signatures per second over a JWT-sized input, for `seconds` each. */
async function measureSigning(seconds: number): Promise<SignRates> {
  const { privateJwk } = await generateEs256KeyPair();
  const signer = await signerFromPrivateJwk(privateJwk);
  const input = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'dc+sd-jwt', kid: 'k'.repeat(43) })).toString('base64url')}.${Buffer.from(JSON.stringify({ iss: 'https://example.com/orgs/x', _sd: Array(6).fill('h'.repeat(43)), cnf: { jwk: privateJwk } })).toString('base64url')}`;
  const windowMs = seconds * 1000;
  let count = 0;
  let t0 = performance.now();
  while (performance.now() - t0 < windowMs) {
    await signer.sign(input);
    count++;
  }
  const webCryptoSerial = count / ((performance.now() - t0) / 1000);
  count = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (performance.now() - t0 < windowMs) {
        await signer.sign(input);
        count++;
      }
    }),
  );
  const webCrypto64 = count / ((performance.now() - t0) / 1000);
  // The product's own signer (the organization key store's: node:crypto, synchronous, a bare KeyObject).
  const productSigner = nodeSigner(privateJwk);
  count = 0;
  t0 = performance.now();
  while (performance.now() - t0 < windowMs) {
    await productSigner.sign(input);
    count++;
  }
  const nodeCrypto = count / ((performance.now() - t0) / 1000);
  return { webCryptoSerial, webCrypto64, nodeCrypto };
}

if (args.child === 'sign') {
  print(`RESULT ${JSON.stringify(await measureSigning(Number(args['sign-seconds'])))}`);
  process.exit(0);
}

const offers = Number(args.offers);
const concurrency = Number(args.concurrency);

print(machineLine());
print(`raw signing (child process, ${args['sign-seconds']} s each)…`);
const signChild = spawnSync(
  process.execPath,
  [...process.execArgv, process.argv[1]!, '--child', 'sign', '--sign-seconds', args['sign-seconds']!],
  { encoding: 'utf8' },
);
const signLine = signChild.stdout.split('\n').find((l) => l.startsWith('RESULT '));
if (!signLine) throw new Error(`signing child failed: ${signChild.stderr}`);
const rates = JSON.parse(signLine.slice(7)) as SignRates;
print(
  `  signerFromPrivateJwk (WebCrypto): ${num(rates.webCryptoSerial)}/s one at a time, ${num(rates.webCrypto64)}/s with 64 in flight; the key store's node:crypto signer: ${num(rates.nodeCrypto)}/s`,
);

const server = await startApiServer({
  profile: args.profile === 'true',
  processes: Number(args['api-processes']),
});
const { info } = server;
const http = httpClient(server.origins, concurrency);
if (server.origins.length > 1) print(`API processes: ${server.origins.length} (requests spread over them in turn)`);
try {
  const holders: { signer: JwsSigner; publicJwk: JsonWebKey }[] = [];
  for (let i = 0; i < 32; i++) {
    const { privateJwk, publicJwk } = await generateEs256KeyPair();
    holders.push({ signer: await signerFromPrivateJwk(privateJwk), publicJwk });
  }
  const claims = {
    full_name: 'Ada Lovelace',
    age: '36',
    member: 'true',
    joined_on: '2020-05-01',
    email: 'ada@example.com',
    homepage: 'https://ada.example',
  };
  const createCredential = async (i: number) => {
    const created = await http.request('/api/credentials/with-recipient', {
      headers: info.headers,
      json: {
        credential: { name: `Membership ${i}`, schema_id: info.schemaId, claims },
        recipient: { email: `person${i}@example.com`, first_name: `First${i}`, last_name: `Last${i}` },
      },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
    return created.json().id as string;
  };

  // Warm-up (JIT, connection pool, prepared paths): not measured.
  const warm = Math.min(100, offers);
  await runConcurrent(warm, concurrency, async (i) => {
    await createCredential(-1 - i);
  });

  // ---- offers ----
  print(loadLine());
  print(`offers: ${num(offers)} × (create + holder page), ${concurrency} in flight…`);
  const txBeforeOffers = await transactionCount(server.databaseUrl);
  const connectionUrls: string[] = new Array(offers);
  const createMs = new Float64Array(offers);
  const meter = await cpuMeter(server);
  const {
    result: { result: offersRun, summary: offersProfile, eventLoop: offersEventLoop },
    cpu: offerCpu,
    statements: offerStatements,
  } = await meter.measure(offers, () =>
    server.profile('offers', () =>
      runConcurrent(offers, concurrency, async (i) => {
        const t0 = performance.now();
        const id = await createCredential(i);
        createMs[i] = performance.now() - t0;
        const connect = await http.request(`/api/credentials/${id}/connect`);
        if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${connect.text}`);
        connectionUrls[i] = connect.json().connection_url;
      }),
    ),
  );
  if (offersRun.failures > 0) throw offersRun.firstError;

  const txPerOffer = ((await transactionCount(server.databaseUrl)) - txBeforeOffers) / offers;

  // ---- claims ----
  const firstLink = connectionUrls[0]!;
  const firstOffer = (await http.request(new URL(firstLink).searchParams.get('credential_offer_uri')!)).json();
  const issuer = new URL(firstOffer.credential_issuer);
  const metadata = (
    await http.request(`${issuer.origin}/.well-known/openid-credential-issuer${issuer.pathname}`)
  ).json();
  const as = (await http.request(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`)).json();
  // The wallet's metadata, resolved once with @cp/holder (as a wallet caches it).
  const issuance = await resolveIssuance(http.request, firstLink);
  // One claim made by @cp/holder, not timed: the wallet's own library redeems this issuer's offers (the
  // timed loop by hand sends the same requests; --claim holder times the library instead).
  {
    const id = await createCredential(-1_000_000);
    const connect = await http.request(`/api/credentials/${id}/connect`);
    const credential = await claimOffer(http.request, connect.json().connection_url, await makeHolder(), issuance);
    if (!credential.includes('~')) throw new Error('@cp/holder: not an SD-JWT VC');
  }
  const walletHolders = await Promise.all(Array.from({ length: 32 }, () => makeHolder()));
  const steps = {
    offer: new Float64Array(offers),
    token: new Float64Array(offers),
    nonce: new Float64Array(offers),
    proof: new Float64Array(offers),
    credential: new Float64Array(offers),
  };
  const stepOf = (path: string): keyof typeof steps | undefined =>
    path.includes('/credential-offer/')
      ? 'offer'
      : path.endsWith('/token')
        ? 'token'
        : path.endsWith('/nonce')
          ? 'nonce'
          : path.endsWith('/credential')
            ? 'credential'
            : undefined;
  /** The claim with @cp/holder; each request's time is recorded by step (the proof is signed in between). */
  const claimWithHolder = async (i: number) => {
    const timed: typeof http.request = async (url, init) => {
      const t0 = performance.now();
      const answer = await http.request(url, init);
      const step = stepOf(new URL(url, 'http://x').pathname);
      if (step) steps[step][i] = (steps[step][i] ?? 0) + performance.now() - t0;
      return answer;
    };
    const t0 = performance.now();
    const credential = await claimOffer(timed, connectionUrls[i]!, walletHolders[i % walletHolders.length]!, issuance);
    if (!credential.includes('~')) throw new Error('not an SD-JWT VC');
    // What the requests did not take: the holder's own work (offer and token parsing, proof, credential check).
    steps.proof[i] =
      performance.now() - t0 - steps.offer[i]! - steps.token[i]! - steps.nonce[i]! - steps.credential[i]!;
  };
  /**
   * A wallet's requests written out by hand (without the library): the timed claim (--claim hand) sends them in
   * turn, --steps one step at a time.
   */
  const expectOk = (answer: { status: number; text: string }, step: string) => {
    if (answer.status !== 200) throw new Error(`${step}: ${answer.status} ${answer.text}`);
  };
  const wallet = {
    async offer(connectionUrl: string) {
      const answer = await http.request(new URL(connectionUrl).searchParams.get('credential_offer_uri')!);
      expectOk(answer, 'offer');
      const offer = answer.json();
      return {
        issuer: offer.credential_issuer as string,
        configurationId: offer.credential_configuration_ids[0] as string,
        code: offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string,
      };
    },
    async token(code: string) {
      const answer = await http.request(as.token_endpoint, {
        form: { grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code },
      });
      expectOk(answer, 'token');
      return answer.json().access_token as string;
    },
    async nonce() {
      const answer = await http.request(metadata.nonce_endpoint, { method: 'POST' });
      expectOk(answer, 'nonce');
      return answer.json().c_nonce as string;
    },
    proof(holder: (typeof holders)[number], issuer: string, nonce: string) {
      return signJwt(
        holder.signer,
        { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
        { aud: issuer, iat: Math.floor(Date.now() / 1000), nonce },
      );
    },
    async credential(accessToken: string, configurationId: string, proof: string) {
      const answer = await http.request(metadata.credential_endpoint, {
        headers: { authorization: `Bearer ${accessToken}` },
        json: { credential_configuration_id: configurationId, proofs: { jwt: [proof] } },
      });
      expectOk(answer, 'credential');
      if (!String(answer.json().credentials[0].credential).includes('~')) throw new Error('not an SD-JWT VC');
    },
  };
  /** The same claim by hand (--claim hand), each step's time recorded. */
  const claimByHand = async (i: number) => {
    let t = performance.now();
    const lap = (step: keyof typeof steps) => {
      const now = performance.now();
      steps[step][i] = now - t;
      t = now;
    };
    const offer = await wallet.offer(connectionUrls[i]!);
    lap('offer');
    const token = await wallet.token(offer.code);
    lap('token');
    const nonce = await wallet.nonce();
    lap('nonce');
    const proof = await wallet.proof(holders[i % holders.length]!, offer.issuer, nonce);
    lap('proof');
    await wallet.credential(token, offer.configurationId, proof);
    lap('credential');
  };
  /**
   * --steps: a claim's four requests measured one step at a time, on `offers` new offers (created and offered
   * first, not measured). Answers the table's lines.
   */
  const measureSteps = async () => {
    const urls: string[] = new Array(offers);
    await runConcurrent(offers, concurrency, async (i) => {
      const id = await createCredential(2_000_000 + i);
      const connect = await http.request(`/api/credentials/${id}/connect`);
      if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${connect.text}`);
      urls[i] = connect.json().connection_url;
    });
    const found: Awaited<ReturnType<typeof wallet.offer>>[] = [];
    const tokens: string[] = [];
    const nonces: string[] = [];
    const stepTasks: [string, (i: number) => Promise<void>][] = [
      [
        'GET offer',
        async (i) => {
          found[i] = await wallet.offer(urls[i]!);
        },
      ],
      [
        'POST token',
        async (i) => {
          tokens[i] = await wallet.token(found[i]!.code);
        },
      ],
      [
        'POST nonce',
        async (i) => {
          nonces[i] = await wallet.nonce();
        },
      ],
      [
        'POST credential (with its proof signed by the load generator)',
        async (i) => {
          const offer = found[i]!;
          const proof = await wallet.proof(holders[i % holders.length]!, offer.issuer, nonces[i]!);
          await wallet.credential(tokens[i]!, offer.configurationId, proof);
        },
      ],
    ];
    const lines = [
      `each step on its own (${num(offers)} new offers, ${concurrency} in flight):`,
      '',
      '| step | per second | API CPU per request | PostgreSQL CPU per request | API event loop per request |',
      '|---|---|---|---|---|',
    ];
    // A busy backend publishes its transaction counts at most once a second, and one gone idle within 10 s
    // (PostgreSQL 15's stats intervals): wait that long before each reading, or a step's statements are
    // counted in the next one's.
    const settledCount = async () => {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return transactionCount(server.databaseUrl);
    };
    for (const [name, task] of stepTasks) {
      const txBefore = await settledCount();
      const {
        result: { result: run, eventLoop },
        cpu,
      } = await meter.measure(offers, () =>
        server.profile(`step-${name.split(' ')[1]}`, () => runConcurrent(offers, concurrency, task)),
      );
      if (run.failures > 0) throw run.firstError;
      const statements = ((await settledCount()) - txBefore) / offers;
      lines.push(
        `| ${name} (${statements.toFixed(1)} statements) | ${num(run.perSecond)} | ${ms(cpu.api)} | ${ms(cpu.database)} | ${ms(eventLoop.activeMs / offers)} |`,
      );
    }
    return lines;
  };

  const byHand = args.claim !== 'holder';
  print(loadLine());
  print(
    `claims: ${num(offers)} × (offer, token, nonce, proof, credential), ${concurrency} in flight, ${byHand ? 'by hand' : 'with @cp/holder'}…`,
  );
  const txBeforeClaims = await transactionCount(server.databaseUrl);
  const cpuBeforeClaims = process.cpuUsage();
  const {
    result: { result: claimsRun, summary: claimsProfile, eventLoop: claimsEventLoop },
    cpu: claimCpuBudget,
    statements: claimStatements,
  } = await meter.measure(offers, () =>
    server.profile('claims', () => runConcurrent(offers, concurrency, byHand ? claimByHand : claimWithHolder)),
  );
  const claimCpu = process.cpuUsage(cpuBeforeClaims);
  if (claimsRun.failures > 0) throw claimsRun.firstError;
  print(loadLine());
  const txPerClaim = ((await transactionCount(server.databaseUrl)) - txBeforeClaims) / offers;
  const stepLines = args.steps === 'true' ? await measureSteps() : [];
  await meter.close();

  const target = 1000;
  print('');
  print('| phase | operations | in flight | wall time | per second | p50 | p95 |');
  print('|---|---|---|---|---|---|---|');
  print(
    `| offers (create + holder page) | ${num(offers)} | ${concurrency} | ${offersRun.seconds.toFixed(2)} s | ${num(offersRun.perSecond)} | ${ms(percentile(offersRun.latencies, 50))} | ${ms(percentile(offersRun.latencies, 95))} |`,
  );
  print(
    `| claims (offer → token → nonce → proof → credential) | ${num(offers)} | ${concurrency} | ${claimsRun.seconds.toFixed(2)} s | ${num(claimsRun.perSecond)} | ${ms(percentile(claimsRun.latencies, 50))} | ${ms(percentile(claimsRun.latencies, 95))} |`,
  );
  print('');
  print(
    `create alone p50 ${ms(percentile(createMs, 50))}; claim steps p50: ${Object.entries(steps)
      .map(([step, values]) => `${step} ${ms(percentile(values, 50))}`)
      .join(', ')}`,
  );
  print(
    `SQL statements (transactions) per operation: ${txPerOffer.toFixed(1)} per offer, ${txPerClaim.toFixed(1)} per claim`,
  );
  print(
    `load generator CPU per claim (${byHand ? 'by hand' : '@cp/holder'}): ${ms((claimCpu.user + claimCpu.system) / 1000 / offers)}`,
  );
  // The whole flow, as the issue counts it: one offer created (with its holder page) and claimed, the two
  // phases one after the other on the same credentials.
  const wholeFlow = offers / (offersRun.seconds + claimsRun.seconds);
  print(
    `whole issuances (offer created + claimed) per second: ${num(wholeFlow)} (${num(offers)} in ${(offersRun.seconds + claimsRun.seconds).toFixed(2)} s); ${(wholeFlow / 22).toFixed(1)}-${(wholeFlow / 14).toFixed(1)}× the OpenWallet Foundation issuer measured on this machine kind (14-22/s)`,
  );
  print(
    `claimed/s ÷ raw signatures/s: ${(claimsRun.perSecond / rates.webCryptoSerial).toFixed(3)} of signerFromPrivateJwk one at a time (${num(rates.webCryptoSerial)}/s), ${(claimsRun.perSecond / rates.webCrypto64).toFixed(3)} of it with 64 in flight (${num(rates.webCrypto64)}/s), ${(claimsRun.perSecond / rates.nodeCrypto).toFixed(3)} of the key store's node:crypto signer (${num(rates.nodeCrypto)}/s)`,
  );
  print(
    `target ≥ ${num(target)} claimed/s: ${claimsRun.perSecond >= target ? 'met' : 'NOT met'} (${num(claimsRun.perSecond)}/s)`,
  );
  print(cpuBudgetLine('offer', offerCpu));
  print(cpuBudgetLine('claim', claimCpuBudget, protocolCryptoMs('claim')));
  print(apiEventLoopLine(server, 'offers', offersEventLoop, offers, 'offer'));
  print(apiEventLoopLine(server, 'claims', claimsEventLoop, offers, 'claim'));
  if (stepLines.length > 0) print('');
  for (const line of stepLines) print(line);
  for (const [phase, lines] of [
    ['offers', offerStatements],
    ['claims', claimStatements],
  ] as const) {
    if (lines.length > 0) print(`PostgreSQL's costliest statements, ${phase} (pg_stat_statements):`);
    for (const line of lines) print(line);
  }
  for (const lines of [offersProfile, claimsProfile]) {
    if (lines.length > 0) print('');
    for (const line of lines) print(line);
  }
} finally {
  await http.close();
  await server.stop();
}
