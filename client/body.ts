import type { Dispatcher } from "undici";
import { ResponseTooLargeError, TransportError } from "./errors";

/**
 * The most of one answer the client reads: 32 MiB, some eight times a full page of the largest
 * items the API returns. A larger or endless body is abandoned as soon as it passes this, never
 * read whole (nor held: a hostile server cannot make the client grow without end).
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The body of `res` as text, at most `limit` bytes; a lost connection is a TransportError. */
export async function readCapped(
  res: Pick<Dispatcher.ResponseData<unknown>, "headers" | "body">,
  request: string,
  where: string,
  limit = MAX_ANSWER_BYTES,
): Promise<string> {
  const declared = Number(res.headers["content-length"]);
  if (declared > limit) {
    res.body.destroy();
    throw new ResponseTooLargeError(request, where, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new ResponseTooLargeError(request, where, limit);
      chunks.push(chunk);
    }
  } catch (e) {
    res.body.destroy();
    if (e instanceof ResponseTooLargeError) throw e;
    throw new TransportError(request, e, where);
  }
  return Buffer.concat(chunks).toString("utf8");
}
