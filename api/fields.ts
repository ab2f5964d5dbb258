import { RE2JS } from "re2js";
import { z } from "zod";
import { UID } from "./uid";
import { CAPABILITIES } from "./capabilities";
import { withSuggestion } from "./suggest";

/**
 * Field rules shared by the server (which enforces them) and the provider's `check` (which
 * reports them at preview time, before any request is sent). Messages name what is wrong, not
 * where: the caller adds the field path.
 */

/** A group name: `^[a-z0-9 ._-]{1,}$`, at most NAME_MAX characters. */
export const GROUP_NAME = /^[a-z0-9 ._-]{1,}$/;
/** The longest name (of a group or anything else) the API stores. */
export const NAME_MAX = 256;

export const uid = z.string().regex(UID, "must be a uid: 40 hex characters, then /-separated 16-hex segments");
export const groupName = z
  .string()
  .max(NAME_MAX, `must be at most ${NAME_MAX} characters`)
  .regex(GROUP_NAME, "must match ^[a-z0-9 ._-]{1,}$");
export const name = z.string().min(1, "must not be empty").max(NAME_MAX, `must be at most ${NAME_MAX} characters`);
export const description = z.string().max(4096, "must be at most 4096 characters");

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts a test issuer may serve plain http from. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** An OIDC issuer URL: https, or http on a loopback host. */
export const issuerUrl = z.string().superRefine((s, ctx) => {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    ctx.addIssue({ code: "custom", message: "must be a URL" });
    return;
  }
  if (u.protocol === "https:") return;
  if (u.protocol === "http:" && isLoopbackHost(u.hostname)) return;
  ctx.addIssue({ code: "custom", message: "must be an https URL (plain http only on a loopback host)" });
});

/** The longest pattern accepted. */
export const PATTERN_MAX = 1024;

/**
 * The most instructions a pattern may compile to. Matching takes time linear in the input times
 * this size at worst: `(?:.*a){1000}b` is 16 characters but 3,000 instructions.
 */
export const PATTERN_MAX_INSTRUCTIONS = 1000;

/** The size of `pattern`'s anchored RE2 program, as the server compiles it; throws when it does not compile. */
export function patternInstructions(pattern: string): number {
  return RE2JS.compile(`^(?:${pattern})$`).programSize();
}

/**
 * A regular expression in RE2 syntax (as the platform, written in Go, reads them). Patterns are
 * matched in linear time (re2js), so RE2 refuses what cannot be: backreferences and lookaround.
 */
export const pattern = z
  .string()
  .min(1, "must not be empty")
  .max(PATTERN_MAX, `must be at most ${PATTERN_MAX} characters`)
  .superRefine((s, ctx) => {
    let size: number;
    try {
      size = patternInstructions(s);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: `is not a valid RE2 regular expression: ${(e as Error).message}` });
      return;
    }
    if (size > PATTERN_MAX_INSTRUCTIONS)
      ctx.addIssue({ code: "custom", message: `compiles to ${size} instructions: at most ${PATTERN_MAX_INSTRUCTIONS} (a repeat count such as {1000} multiplies what it repeats)` });
  });

/** The most entries a map field (claims, claimPatterns, serviceBindings, clientIds) may hold. */
export const MAP_MAX = 64;

/**
 * A map field whose values follow `value`. A key such as `__proto__` would be dropped by an
 * ordinary object (and with it, say, a claim the caller asked to require), so it is refused.
 */
export function map<V extends z.ZodType>(value: V) {
  const key = z.string().min(1, "must not be an empty key").max(NAME_MAX, `keys must be at most ${NAME_MAX} characters`);
  const record = z
    .record(key, value)
    .refine((m) => Object.keys(m).length <= MAP_MAX, { message: `must have at most ${MAP_MAX} entries` });
  // zod skips a `__proto__` key before validating keys: look at the raw input first.
  return z
    .unknown()
    .superRefine((v, ctx) => {
      if (typeof v === "object" && v !== null && Object.hasOwn(v, "__proto__"))
        ctx.addIssue({ code: "custom", path: ["__proto__"], message: "is not an accepted key" });
    })
    .pipe(record);
}

/** A capability name: one of the table the server authorizes with (a closed set: an enum in the plugin's schema). */
export const capability = z
  // YAML and Go programs get no compiler to suggest the right name: the rule does.
  .enum(CAPABILITIES, { error: (iss) => withSuggestion("is not a known capability", iss.input, CAPABILITIES) })
  .meta({ id: "Capability", description: "A capability a role can hold: `<collection>.<verb>`, such as `groups.list`." });

/** An RFC 3339 UTC timestamp with milliseconds, as every `*Time` field is written. */
export const timestamp = z.iso.datetime({ precision: 3, message: "must be an RFC 3339 UTC timestamp with milliseconds" });

/** The service principals an identity can stand for. */
export const SERVICE_PRINCIPALS = [
  "CATALOG_SYNCER",
  "APKO_BUILDER",
  "INGESTER",
  "REGISTRY_PULLER",
  "REGISTRY_PUSHER",
  "COSIGNED",
] as const;

/** How far ahead a static-keys identity may expire. */
export const STATIC_KEYS_MAX_DAYS = 365;
