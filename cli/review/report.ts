import type { AccessDrift } from "../drift/access";
import type { AccessChange } from "./access";
import type { Finding } from "../../policy/world";
import type { FieldChange } from "../engine/values";

/** What a preview will do to one resource, in the words a reviewer uses. */
export type ReviewAction = "create" | "adopt" | "update" | "replace" | "delete";

/** The order actions are listed in, and their section titles. */
export const ACTIONS: readonly { action: ReviewAction; title: string }[] = [
  { action: "create", title: "Create" },
  // The engine calls these creates: `adoptUid` makes create take over an existing resource.
  { action: "adopt", title: "Adopt" },
  { action: "update", title: "Update in place" },
  { action: "replace", title: "Replace" },
  { action: "delete", title: "Delete" },
];

/** One resource the change touches. */
export interface ReviewChange {
  action: ReviewAction;
  /** Logical name in the program. */
  name: string;
  /** Readable kind, e.g. `iam.Group`. */
  kind: string;
  urn: string;
  /** The existing uid (adoptions, updates, replacements, deletes); empty for a create. */
  uid: string;
  /** Field-level before and after (secrets masked; `(known after apply)` for unknowns). */
  fields: FieldChange[];
  /** For a replacement: the fields that force it. */
  replaceBecause: string[];
  /** The IAM guardrails' findings on this resource (none when the policy is off). */
  findings: Finding[];
}

/** What the IAM guardrails found (policy/rules.ts, run as the policy pack). */
export interface ReviewPolicy {
  /** How many findings are mandatory (the review exits 3) and advisory. */
  mandatory: number;
  advisory: number;
  /** Every finding, those on resources the change leaves as they are included. */
  findings: Finding[];
}

/** The outcome of `irv review`: a preview grouped for a reviewer. */
export interface ReviewReport {
  stack: string;
  /** Counts per action. */
  counts: Record<ReviewAction, number>;
  /** How many resources stay as they are. */
  unchanged: number;
  /** E.g. `3 to create, 1 to update, 1 to replace (parentUid), 0 to delete`. */
  summary: string;
  changes: ReviewChange[];
  /** The access the change grants and takes away; absent when the policy is off (the pack records the proposed access). */
  access?: AccessChange;
  /** With `--refresh`: what grants access in the managed groups but is not in the stack (drift of access). */
  outside?: AccessDrift;
  /** The guardrails' findings; absent when the policy is off (`--no-policy`). */
  policy?: ReviewPolicy;
  /** The names of the uids the changes show (a role's, each group's on a path), by uid, where known (./names.ts). */
  names?: Record<string, string>;
  durationMs: number;
}
