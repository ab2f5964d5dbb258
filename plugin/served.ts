/**
 * What this plugin process has served: each call's method and the resource type or function it
 * was about (`create irv:iam:Group`, `create irv:iam:Group preview`, `invoke irv:index:getRoles`).
 * plugin/boot.ts writes the user's code cache again at exit when a run served something the cache's
 * code had not: the code a call runs is compiled on its first use, and only a cache made after it
 * holds it.
 */
import { isObject } from "../api/guards";
import { typeOfUrn } from "./urn";

const served = new Set<string>();

/** What `message`'s method `name` answers, when it has one (not every request has a URN). */
function ask(message: unknown, name: string): unknown {
  const f = isObject(message) ? message[name] : undefined;
  return typeof f === "function" ? Reflect.apply(f, message, []) : undefined;
}

/** Notes a call of `method` with request `req` (a stub message, or the wire's `{ message, structs }`). */
export function noteServed(method: string, req: unknown): void {
  const message = isObject(req) && "message" in req ? req.message : req;
  const urn = ask(message, "getUrn");
  const about = typeof urn === "string" && urn ? typeOfUrn(urn) : ask(message, "getTok");
  served.add([method, about, ask(message, "getPreview") ? "preview" : ""].filter((x) => typeof x === "string" && x).join(" "));
}

/** Every key noted so far. */
export function servedSoFar(): string[] {
  return [...served];
}
