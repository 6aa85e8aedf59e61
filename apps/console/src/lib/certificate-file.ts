/**
 * A certificate file as the PEM text the API takes: a PEM file as it is, a DER file (`.cer`, `.crt` are often
 * binary) wrapped as PEM (RFC 7468 §2: base64 in lines of 64 characters between the labels).
 */
export async function readCertificateFile(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('-----BEGIN CERTIFICATE-----')) return text.trim();
  // A DER certificate starts with a SEQUENCE (0x30); anything else is not a certificate file.
  if (bytes[0] !== 0x30) return text.trim();
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  const lines = base64.match(/.{1,64}/g) ?? [];
  return ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join('\n');
}

/** A SHA-256 fingerprint (hex, with or without separators) as `AB:CD:…`, and shortened to its ends. */
export function formatFingerprint(fingerprint: string): { full: string; short: string } {
  const pairs =
    fingerprint
      .replace(/[^0-9a-f]/gi, '')
      .toUpperCase()
      .match(/.{1,2}/g) ?? [];
  const full = pairs.join(':');
  const short = pairs.length > 8 ? `${pairs.slice(0, 4).join(':')}…${pairs.slice(-4).join(':')}` : full;
  return { full, short };
}
