import { RE2JS } from "re2js";
import { z } from "zod";
import { once } from "./once";
import { UID } from "./uid";
import { CAPABILITIES, capabilityEnum, capabilityNamed, isInternalOnly, type Capability } from "./capabilities";
import { withSuggestion } from "./suggest";

/**
 * Field rules shared by the server (which enforces them) and the provider's `check` (which
 * reports them at preview time, before any request is sent). Messages name what is wrong, not
 * where: the caller adds the field path. Each rule is made on its first call and then kept
 * (api/once.ts): the plugin, started for every operation, loads this module and uses a few.
 */

/** A group name: `^[a-z0-9 ._-]{1,}$` (the spec), and 3 to 63 characters (the protos). */
export const GROUP_NAME = /^[a-z0-9 ._-]{1,}$/;
/** The longest name the API stores of what has no tighter rule (a role, an account association). */
export const NAME_MAX = 256;
/** The bounds of a group's, an identity's and an identity provider's name (the protos: 3-63 characters). */
export const SHORT_NAME_MIN = 3;
export const SHORT_NAME_MAX = 63;

export const uid = once(() => z.string().regex(UID, "must be a uid: 40 hex characters, then /-separated 16-hex segments"));

/** The largest value a proto int64 holds. */
export const INT64_MAX = 2n ** 63n - 1n;
/** What is wrong with digits past an int64. */
export const INT64_TOO_LARGE = `must be at most ${INT64_MAX} (the API holds it in an int64)`;
/** True when `s` is the decimal digits of a value an int64 holds. */
export const fitsInt64 = (s: string): boolean => /^\d{1,19}$/.test(s) && BigInt(s) <= INT64_MAX;
/**
 * A non-negative int64 of the API as JSON carries one (a decimal string, as protojson writes
 * 64-bit integers): digits, and no more than an int64 holds, so that what REST stores reads back
 * the same through gRPC. Every int64 field of the kinds takes this rule (test/server/int64-fields.test.ts
 * finds them in the kinds' proto facts).
 */
export const int64Digits = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a numeric ${what}`)
    .refine((s) => !/^\d+$/.test(s) || fitsInt64(s), INT64_TOO_LARGE);
/** A name of 3 to 63 characters: a group's, an identity's, an identity provider's. */
export const shortName = once(() =>
  z
    .string()
    .min(SHORT_NAME_MIN, `must be ${SHORT_NAME_MIN} to ${SHORT_NAME_MAX} characters`)
    .max(SHORT_NAME_MAX, `must be ${SHORT_NAME_MIN} to ${SHORT_NAME_MAX} characters`),
);
export const groupName = once(() => shortName().regex(GROUP_NAME, "must match ^[a-z0-9 ._-]{1,}$"));
export const name = once(() => z.string().min(1, "must not be empty").max(NAME_MAX, `must be at most ${NAME_MAX} characters`));
export const description = once(() => z.string().max(4096, "must be at most 4096 characters"));

/** A value the API requires and otherwise takes as it is: proto3 cannot tell an empty string from none. */
export const required = once(() => z.string().min(1, "is required"));

/** An AWS account id, as the platform checks it (its SDK's `validation.ValidateAWSAccount`, in its words). */
export const awsAccount = once(() => z.string().regex(/^[0-9]{12}$/, 'AWS account ID must match "^[0-9]{12}$"'));

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts a test issuer may serve plain http from. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** An OIDC issuer URL: https, or http on a loopback host. */
export const issuerUrl = once(() =>
  z.string().superRefine((s, ctx) => {
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
  }),
);

/** The longest events sink accepted: what browsers and proxies keep of a URL. */
export const SINK_MAX = 2048;

/** A URL written `<scheme>://<host>...`: a URL parser reads `https:///x` and `https:\\x` as having host `x`, Go's as having none. */
const WRITTEN_WITH_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/\\?#]/i;

/**
 * An events subscription's sink: "the routable HTTPS URL to which events are delivered. Must use
 * the https scheme" (the platform's events protos): an absolute https URL written with its host,
 * without spaces or control characters (which a URL parser would silently drop or escape, so
 * the stored sink would not be the one delivered to). Messages never repeat the value: a sink may
 * carry a token in its query.
 */
export const sinkUrl = once(() =>
  z
    .string()
    .max(SINK_MAX, `must be at most ${SINK_MAX} characters`)
    .superRefine((s, ctx) => {
      if (s.length > SINK_MAX) return;
      let u: URL | undefined;
      try {
        u = /[\s\p{Cc}]/u.test(s) || !WRITTEN_WITH_HOST.test(s) ? undefined : new URL(s);
      } catch {
        u = undefined;
      }
      if (!u?.host) ctx.addIssue({ code: "custom", message: "must be an absolute https URL with a host (https://<host>/...), without spaces" });
      else if (u.protocol !== "https:") ctx.addIssue({ code: "custom", message: "must use the https scheme" });
    }),
);

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
export const pattern = once(() =>
  z
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
        ctx.addIssue({
          code: "custom",
          message: `compiles to ${size} instructions: at most ${PATTERN_MAX_INSTRUCTIONS} (a repeat count such as {1000} multiplies what it repeats)`,
        });
    }),
);

/** The most entries a map field (claims, claimPatterns, serviceBindings, clientIds) may hold. */
export const MAP_MAX = 64;

/**
 * A map field whose values follow `value`. A key such as `__proto__` would be dropped by an
 * ordinary object (and with it, say, a claim the caller asked to require), so it is refused.
 */
export function map<V extends z.ZodType>(value: V) {
  const key = z.string().min(1, "must not be an empty key").max(NAME_MAX, `keys must be at most ${NAME_MAX} characters`);
  const record = z.record(key, value).refine((m) => Object.keys(m).length <= MAP_MAX, { message: `must have at most ${MAP_MAX} entries` });
  // zod skips a `__proto__` key before validating keys: look at the raw input first.
  return z
    .unknown()
    .superRefine((v, ctx) => {
      if (typeof v === "object" && v !== null && Object.hasOwn(v, "__proto__"))
        ctx.addIssue({ code: "custom", path: ["__proto__"], message: "is not an accepted key" });
    })
    .pipe(record);
}

/**
 * A capability a custom role may hold, as a program gives it: its friendly name (`groups.list`)
 * or its enum name as the API spells it (`CAP_IAM_GROUPS_LIST`, as pasted from the API). The
 * plugin's schema lists the friendly names; internal-only capabilities no customer role may hold.
 */
export const capability = once(() =>
  z
    .string()
    .superRefine((s, ctx) => {
      const c = capabilityNamed(s);
      // YAML and Go programs get no compiler to suggest the right name: the rule does.
      if (c === undefined) ctx.addIssue({ code: "custom", message: withSuggestion("is not a known capability", s, CAPABILITIES) });
      else if (isInternalOnly(c)) ctx.addIssue({ code: "custom", message: `${s} is internal to the platform: no role of an organization may hold it` });
    })
    .meta({
      id: "Capability",
      description:
        "A capability a role can hold: its name, `<collection>.<verb>` such as `groups.list` (the API's enum name, such as `CAP_IAM_GROUPS_LIST`, is accepted too).",
      enum: CAPABILITIES.filter((c) => !isInternalOnly(c)),
    }),
);

/** Capabilities to the API's enum names, and back to their friendly names (a role's `capabilities`). */
export const capabilitiesCodec = {
  toWire: (v: unknown) => (Array.isArray(v) ? v.map((c) => (typeof c === "string" && capabilityNamed(c) ? capabilityEnum(capabilityNamed(c)!) : c)) : v),
  fromWire: (v: unknown) => (Array.isArray(v) ? v.map((c) => (typeof c === "string" ? (capabilityNamed(c) ?? c) : c)) : v),
};

/** The capabilities of a wire body (enum names), as friendly names; an entry that is not an enum name is an issue. */
export const wireCapabilities = once(() =>
  z.array(
    z.string().transform((s, ctx): Capability => {
      const c = capabilityNamed(s);
      if (c !== undefined && s === capabilityEnum(c)) return c;
      ctx.addIssue({
        code: "custom",
        message:
          c !== undefined
            ? `must be the capability's enum name ${JSON.stringify(capabilityEnum(c))}, not its friendly name`
            : withSuggestion("is not a capability's enum name", s, CAPABILITIES.map(capabilityEnum)),
      });
      return z.NEVER;
    }),
  ),
);

/**
 * An RFC 3339 UTC timestamp, as every `*Time` field is written: protojson writes 0, 3, 6 or 9
 * fractional digits, so any precision is taken, and two values are compared as instants.
 */
export const timestamp = once(() => z.iso.datetime({ message: "must be an RFC 3339 UTC timestamp such as 2027-01-31T00:00:00Z" }));

/** Whether two timestamps name the same instant (`...00Z` and `...00.000Z` do). */
export function sameInstant(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && !Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b);
}

/** The service principals an identity can stand for: the platform's `ServicePrincipal` enum, by name and number. */
export const SERVICE_PRINCIPAL_NUMBERS = {
  SERVICE_PRINCIPAL_COSIGNED: 1,
  SERVICE_PRINCIPAL_INGESTER: 2,
  SERVICE_PRINCIPAL_CATALOG_SYNCER: 3,
  SERVICE_PRINCIPAL_APKO_BUILDER: 4,
  SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER: 5,
  SERVICE_PRINCIPAL_TENANT_SCANNER: 6,
  SERVICE_PRINCIPAL_SEDIMENTOLOGY: 7,
  SERVICE_PRINCIPAL_SKILLUP: 8,
  SERVICE_PRINCIPAL_MATERIALIZER: 9,
  SERVICE_PRINCIPAL_MICROFLOW: 10,
  SERVICE_PRINCIPAL_GUARDENER: 11,
  SERVICE_PRINCIPAL_MICROVM: 12,
  SERVICE_PRINCIPAL_SKILLS: 13,
} as const;
export const SERVICE_PRINCIPALS = Object.keys(SERVICE_PRINCIPAL_NUMBERS) as [
  keyof typeof SERVICE_PRINCIPAL_NUMBERS,
  ...(keyof typeof SERVICE_PRINCIPAL_NUMBERS)[],
];

/** How far ahead a static-keys identity may expire. */
export const STATIC_KEYS_MAX_DAYS = 365;
