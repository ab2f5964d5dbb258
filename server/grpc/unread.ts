/**
 * gRPC answers against the bounds of unread answers (../unread.ts): admitted by the handler
 * (services.ts) just before it writes one, released here once it is sent.
 */
import { ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import type { UnreadAnswers } from "../unread";

/**
 * Releases each admitted answer once it is sent. The handler admits an answer just before it
 * writes it (services.ts), and every answer written passes here: a unary call's status follows
 * its message only once the message's write completed, and a call that ends otherwise is
 * cancelled (grpc-js reports every finished call so).
 */
export function releaseWhenSent(unread: UnreadAnswers): ServerInterceptor {
  return (_method, call) => {
    const peer = call.getPeer();
    let held = 0;
    let ended = false;
    const release = () => {
      if (held > 0) unread.release(peer, held);
      held = 0;
      ended = true;
    };
    return new ServerInterceptingCall(call, {
      start: (next) => next({ onCancel: release }),
      sendMessage: (message: Buffer, next) => {
        held = message.length;
        // Gone already: grpc-js drops the message.
        if (ended) release();
        next(message);
      },
      sendStatus: (status, next) => {
        release();
        next(status);
      },
    });
  };
}
