import { makeCertificate } from '@cp/credentials/testing';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { RegisteredRoute } from '../src/app.ts';
import { buildOrganization, buildUser, type TestApp } from './harness.ts';

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = `----security${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

export const basicAuth = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * An organization with one object of every kind the API manages: a KYB application with its document, a
 * credential schema, a credential (with a PIN-protected offer), a CSV import, a verification with one
 * holder attempt, an API key and a webhook. Every id and name is returned so tests can look for leaks.
 */
export async function buildPopulatedOrganization(t: TestApp, label: string) {
  const member = await buildUser(t, { email: `${label.toLowerCase()}-member@example.com`, firstName: `${label}Ada` });
  const organization = await buildOrganization(t, member.user.id, `${label} Organization`);
  const headers = { ...member.auth, currentidentity: organization.id };
  const inject = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { ...headers, ...extra },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };

  const document = multipart([
    { name: 'purpose', value: 'kyb_document' },
    { name: 'file', value: pdf, filename: `${label}-registry.pdf`, type: 'application/pdf' },
  ]);
  const media = await inject('POST', '/api/media/upload', document.payload, { 'content-type': document.contentType });
  const kyb = await inject('POST', `/api/kyb/${organization.id}`, { documents: [media.id] });
  await t.runtime.ctx.database.db
    .update(schema.organizations)
    .set({ verificationStatus: 'APPROVED', verifiedAt: new Date() })
    .where(eq(schema.organizations.id, organization.id));

  const credentialSchema = await inject('POST', '/api/schemas', {
    name: `${label} Diploma`,
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'age', type: 'NUMBER' },
    ],
  });
  const credential = await inject('POST', '/api/credentials/with-recipient', {
    credential: {
      name: `${label} Diploma`,
      schema_id: credentialSchema.id,
      claims: { full_name: `${label} Holder`, age: '42' },
    },
    recipient: { email: `${label.toLowerCase()}-holder@example.com`, first_name: `${label}First`, last_name: 'Last' },
    tx_code: true,
  });
  const csv = multipart([
    { name: 'schema_id', value: credentialSchema.id },
    {
      name: 'file',
      value: `recipient_first_name,recipient_last_name,recipient_email,full_name,age\nIm,Port,${label.toLowerCase()}-import@example.com,Imported ${label},30\n`,
      filename: 'recipients.csv',
      type: 'text/csv',
    },
  ]);
  const credentialImport = await inject('POST', '/api/credentials/import', csv.payload, {
    'content-type': csv.contentType,
  });
  // The import runs in the background: wait for it so that later row counts are stable.
  for (let i = 0; i < 100; i += 1) {
    const state = await inject('GET', `/api/credentials/import/${credentialImport.id}`);
    if (state.status === 'COMPLETED' || state.status === 'FAILED') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ageAttribute = (credentialSchema.attributes as { id: string; name: string }[]).find((a) => a.name === 'age')!;
  const verification = await inject('POST', '/api/verifications', {
    name: `${label} Age check`,
    schema_id: credentialSchema.id,
    type: 'MULTI',
    attributes: [{ attribute_id: ageAttribute.id, operator: 'BIGGER', value: '18' }],
  });
  const customerId = `${label.toLowerCase()}-customer-1`;
  // The integrator's own attempt for its customer (vouched for: it answers the per-customer lookup).
  const attempt = await inject('POST', `/api/verifications/${verification.id}/individuals`, {
    customer_id: customerId,
  });
  const anchorCa = await makeCertificate({ subject: `CN=${label} Partner CA`, ca: true });
  const trustAnchor = await inject('POST', '/api/trust-anchors', {
    kind: 'CERTIFICATE',
    name: `${label} partner anchor`,
    certificate_pem: anchorCa.pem,
  });
  const providerCa = await makeCertificate({ subject: `CN=${label} Wallet Provider CA`, ca: true });
  const walletProvider = await inject('POST', '/api/wallet-providers', {
    name: `${label} wallet provider`,
    certificate_pem: providerCa.pem,
  });
  const apiKey = await inject('POST', '/api/integrations/keys', { name: `${label} integration key` });
  const webhook = await inject('POST', '/api/webhooks', {
    url: `https://${label.toLowerCase()}.example/hook`,
    description: `${label} hook`,
    events: ['credential.claimed'],
  });
  // A colleague who joined by invitation with the member role, and an invitation still pending.
  const colleagueEmail = `${label.toLowerCase()}-colleague@example.com`;
  const colleague = await buildUser(t, { email: colleagueEmail, firstName: `${label}Colleague` });
  const colleagueInvitation = await inject('POST', `/api/organizations/${organization.id}/invitations`, {
    email: colleagueEmail,
    role: 'member',
  });
  const joined = await t.app.inject({
    method: 'POST',
    url: `/api/invitations/${invitationToken(colleagueInvitation.url)}/accept`,
    headers: colleague.auth,
  });
  expect(joined.statusCode, joined.body).toBe(200);
  const pendingEmail = `${label.toLowerCase()}-invitee@example.com`;
  const invitation = await inject('POST', `/api/organizations/${organization.id}/invitations`, {
    email: pendingEmail,
    role: 'admin',
  });

  return {
    member,
    organization,
    headers,
    /** A member (role `member`) of the organization, signed in. */
    colleague: { ...colleague, headers: { ...colleague.auth, currentidentity: organization.id } },
    apiKeyAuth: { authorization: basicAuth(apiKey.key, apiKey.secret) },
    ids: {
      organization: organization.id as string,
      member: member.user.id as string,
      media: media.id as string,
      kybApplication: kyb.id as string,
      schema: credentialSchema.id as string,
      attribute: ageAttribute.id,
      credential: credential.id as string,
      credentialImport: credentialImport.id as string,
      verification: verification.id as string,
      attempt: attempt.id as string,
      trustAnchor: trustAnchor.id as string,
      walletProvider: walletProvider.id as string,
      apiKey: apiKey.id as string,
      apiKeyKey: apiKey.key as string,
      webhook: webhook.id as string,
      colleague: colleague.user.id as string,
      invitation: invitation.id as string,
      invitationToken: invitationToken(invitation.url),
    },
    names: [
      `${label} Organization`,
      `${label} Diploma`,
      `${label} Age check`,
      `${label} integration key`,
      `${label} hook`,
      `${label} partner anchor`,
      `${label} wallet provider`,
      `${label}-registry.pdf`,
      `${label.toLowerCase()}-member@example.com`,
      `${label.toLowerCase()}-holder@example.com`,
      colleagueEmail,
      pendingEmail,
      customerId,
    ],
    secrets: { apiKeySecret: apiKey.secret as string, webhookSecret: webhook.secret as string },
    customerId,
    anchorPem: anchorCa.pem,
    walletProviderPem: providerCa.pem,
    txCode: credential.tx_code as string,
  };
}

export type PopulatedOrganization = Awaited<ReturnType<typeof buildPopulatedOrganization>>;

/** The token of an invitation link `<PUBLIC_URL>/invitations/<token>`. */
export const invitationToken = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** The organization's id for each path parameter, by the path in front of it. */
export function pathFor(org: PopulatedOrganization, url: string): string | { missing: string } {
  const ids = org.ids;
  const byResource: [RegExp, string][] = [
    [/^\/api\/schemas\/:id/, ids.schema],
    [/^\/api\/credentials\/import\/:id/, ids.credentialImport],
    [/^\/api\/credentials\/:id/, ids.credential],
    [/^\/api\/verifications\/:id/, ids.verification],
    [/^\/api\/webhooks\/:id/, ids.webhook],
    [/^\/api\/trust-anchors\/:id/, ids.trustAnchor],
    [/^\/api\/wallet-providers\/:id/, ids.walletProvider],
    [/^\/api\/integrations\/keys\/:id/, ids.apiKey],
    [/^\/api\/kyb-reviews\/:id/, ids.kybApplication],
    [/^\/api\/media\/:id/, ids.media],
    [/^\/api\/organizations\/:id/, ids.organization],
    // The first placeholder is replaced each time: the organization's (above), then these.
    [/^\/api\/organizations\/[^/:]+\/members\/:userId/, ids.member],
    [/^\/api\/organizations\/[^/:]+\/invitations\/:invitationId/, ids.invitation],
    [/^\/api\/invitations\/:token/, ids.invitationToken],
    [/^\/api\/kyb\/:orgId/, ids.organization],
  ];
  let result = url;
  for (const [pattern, id] of byResource) {
    if (pattern.test(result)) result = result.replace(/:[A-Za-z]+/, id);
  }
  result = result.replace(':customer', org.customerId).replace(':attemptId', ids.attempt);
  return result.includes(':') ? { missing: url } : result;
}

/** A request each route accepts, naming the organization's objects wherever a body can. */
export type Sample = { payload?: unknown; multipart?: ReturnType<typeof multipart>; query?: string };
export function sampleFor(org: PopulatedOrganization, route: RegisteredRoute): Sample | null {
  const ids = org.ids;
  const key = `${route.method} ${route.url}`;
  const bodies: Record<string, () => Sample> = {
    'POST /api/schemas': () => ({ payload: { name: 'Mine', attributes: [{ name: 'x', type: 'TEXT' }] } }),
    'POST /api/credentials/with-recipient': () => ({
      payload: {
        credential: { name: 'Stolen', schema_id: ids.schema, claims: { full_name: 'X', age: '1' } },
        recipient: { email: 'x@example.com', first_name: 'X', last_name: 'Y' },
      },
    }),
    'PATCH /api/credentials/revoke': () => ({ payload: { credentials: [ids.credential] } }),
    'POST /api/credentials/delete': () => ({ payload: { credentials: [ids.credential] } }),
    'POST /api/credentials/:id/resend': () => ({ payload: { locale: 'en' } }),
    'POST /api/credentials/notify/via-schema': () => ({
      payload: { schema_id: ids.schema, credential_ids: [ids.credential], import_id: ids.credentialImport },
    }),
    'POST /api/credentials/mail-preview': () => ({
      payload: { schema_id: ids.schema, credential_id: ids.credential },
    }),
    'POST /api/credentials/import': () => ({
      multipart: multipart([
        { name: 'schema_id', value: ids.schema },
        {
          name: 'file',
          value: 'recipient_first_name,recipient_last_name,recipient_email,full_name,age\nA,B,c@example.com,D,1\n',
          filename: 'r.csv',
          type: 'text/csv',
        },
      ]),
    }),
    'POST /api/verifications': () => ({
      payload: {
        name: 'Stolen',
        schema_id: ids.schema,
        type: 'MULTI',
        attributes: [{ attribute_id: ids.attribute, operator: 'BIGGER', value: '1' }],
      },
    }),
    'PUT /api/verifications/:id': () => ({ payload: { name: 'Renamed', schema_id: ids.schema, type: 'SINGLE' } }),
    'POST /api/webhooks': () => ({
      payload: { url: 'https://elsewhere.example/hook', events: ['credential.claimed'] },
    }),
    'PUT /api/webhooks/:id': () => ({ payload: { description: 'taken over', url: 'https://attacker.example/hook' } }),
    'PATCH /api/webhooks/:id': () => ({ payload: { description: 'taken over', url: 'https://attacker.example/hook' } }),
    'GET /api/credentials/import/template': () => ({ query: `?schema_id=${ids.schema}` }),
    // The activity log, asked for the events of one of the organization's credentials.
    'GET /api/audit-events': () => ({ query: `?filter.target_type=credential&filter.target_id=${ids.credential}` }),
    'POST /api/webhooks/:id/test': () => ({}),
    'POST /api/verifications/:id/individuals': () => ({ payload: { customer_id: 'hijacked-customer' } }),
    'POST /api/verifications/:id/link-secret': () => ({}),
    'POST /api/trust-anchors': () => ({
      payload: { kind: 'CERTIFICATE', name: 'Another anchor', certificate_pem: org.anchorPem },
    }),
    'POST /api/trust-anchors/:id/refresh': () => ({}),
    'POST /api/wallet-providers': () => ({
      payload: { name: 'Another provider', certificate_pem: org.walletProviderPem },
    }),
    'POST /api/integrations/keys': () => ({ payload: { name: 'Another key' } }),
    'PUT /api/integrations/keys/:id': () => ({ payload: { name: 'Renamed key' } }),
    'POST /api/organizations': () => ({ payload: { name: 'Another organization' } }),
    'PUT /api/organizations/:id': () => ({ payload: { name: 'Taken over', brand_color: '#ff0000' } }),
    'PUT /api/organizations/:id/issuer-policy': () => ({
      payload: { dpop_required: true, wallet_attestation_required: false },
    }),
    'PATCH /api/organizations/:id/members/:userId': () => ({ payload: { role: 'member' } }),
    'POST /api/organizations/:id/invitations': () => ({
      payload: { email: 'intruder@example.com', role: 'admin' },
    }),
    'POST /api/organizations/:id/invitations/:invitationId/resend': () => ({ payload: {} }),
    'POST /api/invitations/:token/accept': () => ({}),
    'PUT /api/users': () => ({ payload: { job_title: 'Tester' } }),
    'POST /api/kyb/:orgId': () => ({ payload: { documents: [ids.media] } }),
    'POST /api/kyb-reviews/:id/approve': () => ({}),
    'POST /api/kyb-reviews/:id/reject': () => ({ payload: { reason: 'No' } }),
    'POST /api/media/upload': () => ({
      multipart: multipart([
        { name: 'purpose', value: 'kyb_document' },
        { name: 'file', value: pdf, filename: 'doc.pdf', type: 'application/pdf' },
      ]),
    }),
  };
  const build = bodies[key];
  if (build) return build();
  return route.method === 'GET' || route.method === 'DELETE' ? {} : null;
}

/** Routes that are public (or outside organization scoping) on purpose, with the reason. */
export const PUBLIC_ROUTES: { match: (method: string, url: string) => boolean; reason: string }[] = [
  { match: (m) => m === 'HEAD', reason: 'automatic HEAD twins of GET routes (same handler)' },
  { match: (m) => m === 'OPTIONS', reason: 'CORS preflight of the public wallet-facing endpoints' },
  { match: (_, u) => u === '/api/health' || u.startsWith('/api/health/'), reason: 'liveness/readiness probes' },
  { match: (_, u) => u === '/api/config', reason: "the console's bootstrap settings (no organization data)" },
  { match: (_, u) => u === '/api/docs' || u.startsWith('/api/docs/'), reason: 'OpenAPI documentation' },
  { match: (_, u) => u.startsWith('/api/auth'), reason: 'sign-in, token refresh and logout (own tokens only)' },
  { match: (_, u) => u === '/api/errors', reason: 'anonymous console crash reports (write-only)' },
  { match: (_, u) => u === '/api/admin/run', reason: 'local admin CLI, guarded by the admin token' },
  { match: (_, u) => u === '/api/platform/ca.pem', reason: "the platform CA's public certificate" },
  {
    match: (_, u) => u === '/api/platform/trust-anchors.pem',
    reason: 'the platform-wide trust anchors (public certificates)',
  },
  {
    match: (_, u) => u === '/api/credentials/:id/connect',
    reason: 'holder page of a credential (the unguessable credential id is the link)',
  },
  {
    match: (_, u) =>
      [
        '/api/verifications/individuals',
        '/api/verifications/:id/connect',
        '/api/verifications/:id/requester',
        '/api/verifications/:id/verify',
      ].includes(u),
    reason: 'holder pages of a verification (public; attempt ids are unguessable)',
  },
  {
    match: (_, u) => u.startsWith('/orgs/') || u.startsWith('/.well-known/') || u.startsWith('/vct/'),
    reason: 'OpenID4VCI issuer and did:web documents (public by the standards; tokens guard issuance)',
  },
  {
    match: (_, u) => u.startsWith('/oid4vp/'),
    reason: 'OpenID4VP request and response endpoints (public by the standard)',
  },
  { match: (_, u) => u.startsWith('/dev/'), reason: 'development mailbox (only without SMTP, never in production)' },
  {
    match: (m, u) => m === 'GET' && u === '/api/invitations/:token',
    reason: "an invitation link (the unguessable token) shows the organization's name, the inviter and the role",
  },
];

export const publicReason = (route: RegisteredRoute) =>
  PUBLIC_ROUTES.find((p) => p.match(route.method, route.url))?.reason;
