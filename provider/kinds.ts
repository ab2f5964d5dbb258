/**
 * The resource kinds as the provider and the SDK use them: the definitions of api/kinds, each
 * with the outputs the SDK marks secret. The provider exports one dynamic provider per `kind`,
 * the SDK builds one resource class per entry.
 */
import { KINDS as DEFINITIONS, secretNames, type Kind } from "../api/kinds";

export type { Kind };

/** Every kind, with `secretOutputs`: the fields marked secret in state. */
export const KINDS = DEFINITIONS.map((d) => ({ ...d, secretOutputs: secretNames(d) }));

/** The entry of `kind`. */
export function kindInfo(kind: Kind): (typeof KINDS)[number] {
  return KINDS.find((k) => k.kind === kind)!;
}
