import { certificatePublicJwkFromPem, decodeJwt, describeCertificate, verifyJwtSignature } from '@cp/credentials';
import { LoTEDocumentSchema } from '@owf/eudi-lote';
import type { ResourceFetcher } from '../../lib/resource-fetcher.ts';

/** Most CA certificates taken from one list. */
const LIST_CERTIFICATES_MAX = 500;
/** Service statuses that end a service's trust (ETSI TS 119 602 profiles: granted / withdrawn). */
const ENDED_STATUS = /withdrawn|revoked|suspended|deprecated|expired/i;

const toPem = (base64Der: string) =>
  `-----BEGIN CERTIFICATE-----\n${
    base64Der
      .replace(/\s+/g, '')
      .match(/.{1,64}/g)
      ?.join('\n') ?? ''
  }\n-----END CERTIFICATE-----`;

/**
 * Reads an ETSI TS 119 602 List of Trusted Entities published as a JWS (`trustlist+jwt`, JAdES compact):
 * signed by the key of the operator's certificate the organization pinned, a LoTE document by the
 * @owf/eudi-lote schema, not past its NextUpdate; answers the CA certificates of its services that are
 * in force (a service whose status says withdrawn is left out), valid now.
 */
export async function readTrustedList(
  fetcher: ResourceFetcher,
  url: string,
  signerCertificatePem: string,
  now = new Date(),
): Promise<{ certificates: string[]; skipped: number }> {
  const jws = (await fetcher.text(url, 'application/trustlist+jwt, application/jwt')).trim();
  let header: Record<string, unknown>;
  let payload: unknown;
  try {
    ({ header, payload } = decodeJwt<unknown>(jws));
  } catch {
    throw new Error('The list is not a signed List of Trusted Entities (a JWS)');
  }
  if (header.typ !== undefined && header.typ !== 'trustlist+jwt')
    throw new Error(`Unexpected typ ${String(header.typ)}`);
  if (!(await verifyJwtSignature(jws, await certificatePublicJwkFromPem(signerCertificatePem)))) {
    throw new Error('The list is not signed by the pinned signing certificate');
  }
  const parsed = LoTEDocumentSchema.safeParse(payload);
  if (!parsed.success) throw new Error('The list is not an ETSI TS 119 602 List of Trusted Entities');
  const { ListAndSchemeInformation: info, TrustedEntitiesList: entities } = parsed.data.LoTE;
  if (new Date(info.NextUpdate).getTime() < now.getTime())
    throw new Error('The list is out of date (NextUpdate has passed)');
  const certificates = new Set<string>();
  let skipped = 0;
  for (const entity of entities) {
    for (const { ServiceInformation: service } of entity.TrustedEntityServices) {
      const values = service.ServiceDigitalIdentity.X509Certificates ?? [];
      if (service.ServiceStatus && ENDED_STATUS.test(service.ServiceStatus)) {
        skipped += values.length;
        continue;
      }
      for (const { val } of values) {
        try {
          const pem = toPem(val);
          const summary = await describeCertificate(pem);
          // Only certificate authorities can anchor a path; a listed end-entity certificate cannot.
          if (!summary.isCa || !summary.canSignCertificates || summary.notAfter < now || summary.notBefore > now) {
            skipped += 1;
            continue;
          }
          certificates.add(summary.pem);
        } catch {
          skipped += 1;
        }
      }
    }
  }
  if (certificates.size > LIST_CERTIFICATES_MAX)
    throw new Error(`The list holds more than ${LIST_CERTIFICATES_MAX} CA certificates`);
  return { certificates: [...certificates], skipped };
}
