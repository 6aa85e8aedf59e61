import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ServedDocument = () => Promise<{ type: string; body: string }>;

/**
 * A loopback HTTP server standing in for other parties on the network (foreign issuers' DID documents,
 * metadata and status lists; webhook receivers). GET answers the document registered for the path (404
 * otherwise); POST answers 200. Every request is recorded in `hits` as `METHOD /path`.
 */
export async function startDocumentServer() {
  const documents = new Map<string, ServedDocument>();
  const hits: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      hits.push(`${request.method} ${request.url}`);
      if (request.method === 'POST') return void response.writeHead(200).end('ok');
      const document = documents.get(request.url ?? '');
      if (!document) return void response.writeHead(404).end();
      const { type, body } = await document();
      response.writeHead(200, { 'content-type': type }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    documents,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A did:web DID document with one assertion key (`<did>#key-1`). */
export function didWebDocument(did: string, publicJwk: JsonWebKey): ServedDocument {
  return async () => ({
    type: 'application/json',
    body: JSON.stringify({
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicJwk }],
      assertionMethod: [`${did}#key-1`],
    }),
  });
}
