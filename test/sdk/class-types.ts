/**
 * Pins the generated classes' named types to the shapes they had when hand-written: each pair
 * must be mutually assignable, or this file fails to compile (`npm run typecheck`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as irv from "../../dynamic";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <T extends true>(_: T) => undefined;

interface OidcArgsBefore {
  issuer: pulumi.Input<string>;
  clientId: pulumi.Input<string>;
  clientSecret: pulumi.Input<string>;
  additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
}
interface OidcBefore {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  additionalScopes: string[];
}
interface BoundRefBefore {
  uid: string;
  name: string;
  description: string;
}

same<Same<irv.iam.Oidc, OidcBefore>>(true);
same<Same<irv.iam.BoundRef, BoundRefBefore>>(true);
same<Same<irv.iam.BoundIdentity, BoundRefBefore & { subject: string; issuer: string; email: string }>>(true);
// Every argument the hand-written interface accepted is accepted.
export const args = (a: OidcArgsBefore): irv.iam.OidcArgs => a;
