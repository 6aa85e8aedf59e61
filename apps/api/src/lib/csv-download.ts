import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A stream of `first` then the rest of `chunks`: the first chunk is read before the answer starts. */
async function* startingWith(first: string, chunks: AsyncGenerator<string>) {
  yield first;
  yield* chunks;
}

/**
 * A CSV download streamed from `chunks`: its first chunk is awaited before the headers go out, so a failure
 * there (a bad filter, an unavailable database) is still answered as problem+json; then each chunk is
 * read only when the client takes the previous one (back-pressure), and a client that leaves stops the reads.
 */
export async function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncGenerator<string>) {
  const first = await chunks.next();
  const body = Readable.from(first.done ? [] : startingWith(first.value, chunks), { objectMode: false });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);
}
