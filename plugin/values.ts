/**
 * Values between the engine and the plugin: the engine's Structs decoded once (as sent, plain,
 * and where their secrets were), and Structs made for the way out with the kind's and the
 * arrived secrets wrapped again; a read that finds no drift answers with the bytes that came.
 */
import { isDeepStrictEqual } from "node:util";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { secretPaths, type KINDS } from "../api/kinds";
import type { Rec } from "../provider/resources/spec";
import { wrappedSecretPaths, unwrapMembers, wrapSecrets, type Path } from "./secrets";
import { valuesOf, type ReadAnswer, type StructBytes } from "./wire";

/** A Struct the engine sent, decoded once: as sent (secrets wrapped), plain, and where its secrets were. */
export interface Decoded {
  /** Its bytes, when it came as bytes (Read and Diff: see ./wire). */
  bytes?: Buffer;
  sent: Rec;
  plain: Rec;
  /** The paths that arrived secret, at any depth: kept secret on the way out. */
  secrets: Path[];
}
/** The values of a Struct, or of its bytes as they arrived (see ./wire), secrets still wrapped. */
const valuesIn = (s: structproto.Struct | StructBytes): Rec => (s instanceof structproto.Struct ? s.toJavaScript() : valuesOf(s));
/** A Struct, or its bytes as they arrived. */
export function decode(s: structproto.Struct | StructBytes): Decoded {
  const sent = valuesIn(s);
  return { bytes: s instanceof structproto.Struct ? undefined : s, sent, plain: unwrapMembers(sent), secrets: wrappedSecretPaths(sent) };
}
/** A Struct, or its bytes, as plain values, secrets unwrapped (where they were is not kept: see decode). */
export const plain = (s: structproto.Struct | StructBytes): Rec => unwrapMembers(valuesIn(s));
/** A Struct of `v`, with `undefined` members dropped (Struct refuses them). */
export const struct = (v: Rec): structproto.Struct => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));
/** Values with what arrived secret (`alsoSecret`) and the kind's secret values (`code`, `oidc.clientSecret`) wrapped at their paths. */
export function outwardValues(k: (typeof KINDS)[number], v: Rec, alsoSecret: Path[] = []): Rec {
  return wrapSecrets(v, [...alsoSecret, ...secretPaths(k)]);
}
export const outward = (k: (typeof KINDS)[number], v: Rec, alsoSecret: Path[] = []): structproto.Struct => struct(outwardValues(k, v, alsoSecret));
/**
 * Answers `v` as field `f` of a read: the bytes `was` arrived as, when `v` equals it member for
 * member (a refresh that finds no drift hands the engine back what it sent, as it sent it), else
 * a new Struct.
 */
export function answerWith(a: ReadAnswer, f: "properties" | "inputs", v: Rec, was: Decoded): void {
  if (was.bytes && isDeepStrictEqual(v, was.sent)) a.structs[f] = was.bytes;
  else if (f === "properties") a.message.setProperties(struct(v));
  else a.message.setInputs(struct(v));
}
