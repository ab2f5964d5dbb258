/** What many kinds' definitions share: the common fields, and the rules several kinds' checks use. */
import { z } from "zod";
import * as rule from "../fields";
import type { FieldDefinition } from "./definition";

/** One problem with an input, by its path in the inputs: what the server refuses and check reports. */
export interface InputIssue {
  path: string[];
  message: string;
}

/** Why the timestamp `value` is not after `now` and at most `maxDays` days ahead, or undefined. */
export function expiryProblem(value: string, now: number, maxDays: number): string | undefined {
  const t = Date.parse(value);
  if (t <= now) return "must be in the future";
  if (t > now + maxDays * 86_400_000) return `must be at most ${maxDays} days ahead`;
  return undefined;
}

/** Adds an issue unless exactly one (or, with `optional`, at most one) of `keys` is set. */
export function oneOf(v: Record<string, unknown>, ctx: z.RefinementCtx, keys: readonly string[], optional = false): void {
  const set = keys.filter((k) => v[k] !== undefined && v[k] !== null);
  if (set.length > 1) {
    for (const k of set.slice(1)) ctx.addIssue({ code: "custom", path: [k], message: `only one of ${keys.join(", ")} may be set` });
  } else if (set.length === 0 && !optional) {
    ctx.addIssue({ code: "custom", path: [keys[0]], message: `one of ${keys.join(", ")} is required` });
  }
}

/** Text as the API returns it, when it may be absent. */
export const text = z.string().optional();
/** A string map as the API returns it, when it may be absent. */
export const textMap = z.record(z.string(), z.string()).optional();

const TIMESTAMP = "google.protobuf.Timestamp";

/** Fields most kinds share. */
export const common = {
  description: {
    type: "string",
    description: "Free text.",
    input: true,
    default: "",
    schema: rule.description.optional(),
    read: z.string().default(""),
  },
  createTime: { type: "string", description: "When it was created (RFC 3339).", read: z.string() },
  updateTime: { type: "string", description: "When it last changed (RFC 3339).", read: z.string() },
  /** The owning group's uid (the parent, in the path); changing it replaces the resource. */
  groupUid: (description: string) => ({ type: "string", description, input: true, replace: true, refersTo: "groups" }) as const,
  /** A name, by the API's rule for names (`schema`: a tighter one), as field `number` of the kind's message. */
  name: <S extends z.ZodType<string> = typeof rule.name>(description: string, number: number, schema?: S) =>
    ({
      type: "string",
      description,
      input: true,
      proto: { number, type: "string", behavior: ["REQUIRED"] },
      schema: schema ?? rule.name,
      read: z.string(),
    }) as const,
} satisfies Record<string, FieldDefinition | ((...a: never[]) => FieldDefinition)>;

/** The common fields as fields of a kind's message, by their numbers there. */
export const numbered = {
  description: (number: number) => ({ ...common.description, proto: { number, type: "string" } }) as const,
  createTime: (number: number) => ({ ...common.createTime, proto: { number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] } }) as const,
  updateTime: (number: number) => ({ ...common.updateTime, proto: { number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] } }) as const,
};
