import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import { generateEs256KeyPair, signerFromPrivateJwk } from './src/jws.ts';
import { type PresentationVerifierDeps, verifySdJwtPresentation } from './src/presentation.ts';
import { issueSdJwtVc, presentSdJwtVc } from './src/sd-jwt-vc.ts';
import { encodeStatusList, signStatusListToken } from './src/status-list.ts';
const make = async () => { const p = await generateEs256KeyPair(); return { signer: await signerFromPrivateJwk(p.privateJwk), publicJwk: p.publicJwk }; };
const issuer = await make(); const holder = await make();
const ISS = 'https://issuer.example/orgs/7'; const VCT = 'https://issuer.example/vct/membership'; const STATUS_URI = `${ISS}/status-list`;
const claims = { full_name: 'Ada Lovelace', age: 36, member: true, joined_on: '2020-05-01', email: 'ada@example.com', homepage: 'https://ada.example' };
const token = await signStatusListToken({ signer: issuer.signer, header: {}, uri: STATUS_URI, lst: encodeStatusList(131072, []), ttl: 600 });
const deps: PresentationVerifierDeps = {
  bindIssuerKey: async () => ({ iss: ISS, jwk: issuer.publicJwk, source: 'metadata', identifiers: [ISS] }),
  admitIssuer: async () => ({ issuer: { admitted: true, reason: 'NAMED_ISSUER', detail: 'x' }, type: { passed: true } }),
  fetchStatusListToken: async () => token,
};
const credential = await issueSdJwtVc({ signer: issuer.signer, header: {}, issuer: ISS, vct: VCT, holderJwk: holder.publicJwk, claims, status: { idx: 2, uri: STATUS_URI } });
const N = 4000;
const presentations = [];
for (let i = 0; i < N; i++) presentations.push(await presentSdJwtVc(credential, { disclose: ['age'], keyBinding: { signer: holder.signer, audience: 'x509_hash:abc', nonce: `n-${i}` } }));
const exp = (i: number) => ({ nonce: `n-${i}`, audience: 'x509_hash:abc', vctValues: [VCT], requestedClaims: [{ name: 'age', path: ['age'] }], rules: [{ attribute: 'age', type: 'NUMBER' as const, operator: 'BIGGER' as const, value: '18' }] });
for (let i = 0; i < 1000; i++) { const r = await verifySdJwtPresentation(presentations[i % N], exp(i % N), deps); if (!r.checks.every(c => c.passed)) throw new Error(JSON.stringify(r.checks)); }
const session = new Session(); session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start');
const cpu = process.cpuUsage(); const t = process.hrtime.bigint();
for (let i = 0; i < N; i++) await verifySdJwtPresentation(presentations[i], exp(i), deps);
const u = process.cpuUsage(cpu);
console.log('per presentation: wall', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'µs; cpu (all threads)', ((u.user + u.system) / N).toFixed(1), 'µs');
const { profile } = await session.post('Profiler.stop'); fs.writeFileSync('/tmp/mb.cpuprofile', JSON.stringify(profile));
