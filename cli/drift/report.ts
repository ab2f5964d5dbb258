import type { AccessDrift } from "./access";
import type { Shown } from "../engine/values";

/** One field whose live value differs from the value recorded in the stack. */
export interface FieldDrift {
  /** Dotted field path, e.g. `description` or `claimMatch.subject`. */
  path: string;
  /** The value in the stack's state (`[secret]` when secret; undefined when absent). */
  recorded: Shown;
  /** The value the live API returns (masked likewise). */
  live: Shown;
}

/** A resource whose live state differs from the stack: changed fields, or gone. */
export interface DriftedResource {
  /** Logical name in the program. */
  name: string;
  /** Readable kind, e.g. `iam.Group`. */
  kind: string;
  /** Pulumi type token. */
  type: string;
  urn: string;
  /** The resource's uid (its provider id). */
  uid: string;
  /** `changed`: fields differ; `deleted`: deleted outside Pulumi. */
  status: "changed" | "deleted";
  /** The differing fields (empty for a deleted resource). */
  fields: FieldDrift[];
}

/** The outcome of `irv drift`: what differs between a stack and the live API. */
export interface DriftReport {
  stack: string;
  /** True when nothing differs: exit code 0. */
  inSync: boolean;
  /** How many resources were compared. */
  checked: number;
  /** How many have changed fields. */
  changed: number;
  /** How many were deleted outside Pulumi. */
  deleted: number;
  resources: DriftedResource[];
  /**
   * `irv:*` settings changed since the stack's last update (keys only). The check used the
   * current ones (the program was run so that the provider got them).
   */
  settingsChanged: string[];
  /**
   * Who read the live resources: irv itself, through the kinds' providers (`engine: false`), or
   * the engine's refresh, and why it had to.
   */
  readBy: { engine: false } | { engine: true; why: string };
  /** What grants access inside the managed groups but is not in the stack (absent: no API configured, or not asked). */
  access?: AccessDrift;
  durationMs: number;
}
