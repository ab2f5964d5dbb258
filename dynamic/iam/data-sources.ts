/** IAM data sources: the functions of provider/functions, with the program's client. */
import * as functions from "../../provider/functions/iam";
import type * as pulumi from "@pulumi/pulumi";
import { named, outputOf, programClient, type OutputArgs } from "../functions";
import type { GetGroupArgs, GetIdentityArgs, GetRoleArgs, GetRolesArgs, IdentityResult, MissingIdentity } from "../../provider/functions/iam";

export type {
  GroupResult,
  RoleResult,
  IdentityResult,
  MissingIdentity,
  GetGroupArgs,
  GetRoleArgs,
  GetRolesArgs,
  GetIdentityArgs,
} from "../../provider/functions/iam";

/** One group: by uid, or by name under a parent. Errors on zero or several matches. */
export const getGroup = named("iam.getGroup", (args: GetGroupArgs) => functions.getGroup(programClient, args));
/** `getGroup` as an Output. */
export const getGroupOutput = outputOf(getGroup);

/**
 * One role: by uid, or by name. Without `groupUid`, a name shared by a built-in and custom roles
 * resolves to the built-in; otherwise several matches are an error.
 */
export const getRole = named("iam.getRole", (args: GetRoleArgs) => functions.getRole(programClient, args));
/** `getRole` as an Output. */
export const getRoleOutput = outputOf(getRole);

/** Roles matching the filters, every page followed. */
export const getRoles = named("iam.getRoles", (args: GetRolesArgs = {}) => functions.getRoles(programClient, args));
/** `getRoles` as an Output. */
export const getRolesOutput = outputOf(getRoles);

/** getIdentity's one implementation: its errors name it and its arguments, as every function's do. */
const namedGetIdentity = named("iam.getIdentity", (args: GetIdentityArgs) => functions.getIdentity(programClient, args));

/**
 * One identity: by uid; by the issuer and subject it signs in with, as the platform's lookup finds
 * it (a person, `github|<id>` at the platform's issuer, or a workload identity whose claimMatch
 * names exactly both); or by name. Fails on zero or several matches; with `allowMissing: true`,
 * none is `{found: false}` (a person who never signed in). Network and permission errors fail.
 */
export function getIdentity(args: GetIdentityArgs & { allowMissing: true }): Promise<IdentityResult | MissingIdentity>;
export function getIdentity(args: GetIdentityArgs): Promise<IdentityResult>;
export function getIdentity(args: GetIdentityArgs): Promise<IdentityResult | MissingIdentity> {
  return namedGetIdentity(args);
}
/** `getIdentity` as an Output. */
export function getIdentityOutput(args: OutputArgs<GetIdentityArgs & { allowMissing: true }>): pulumi.Output<IdentityResult | MissingIdentity>;
export function getIdentityOutput(args: OutputArgs<GetIdentityArgs>): pulumi.Output<IdentityResult>;
export function getIdentityOutput(args: OutputArgs<GetIdentityArgs>): pulumi.Output<IdentityResult | MissingIdentity> {
  return outputOf(getIdentity as (a: GetIdentityArgs) => Promise<IdentityResult | MissingIdentity>)(args);
}
