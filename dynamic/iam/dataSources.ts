/** IAM data sources: the functions of provider/functions, with the program's client. */
import * as functions from "../../provider/functions/iam";
import { named, outputOf, programClient } from "../client";
import type { GetGroupArgs, GetIdentityArgs, GetRoleArgs, GetRolesArgs } from "../../provider/functions/iam";

export type { GroupResult, RoleResult, IdentityResult, GetGroupArgs, GetRoleArgs, GetRolesArgs, GetIdentityArgs } from "../../provider/functions/iam";

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

/** One identity: by uid, or by issuer+subject (and/or name). Errors on zero or several matches. */
export const getIdentity = named("iam.getIdentity", (args: GetIdentityArgs) => functions.getIdentity(programClient, args));
/** `getIdentity` as an Output. */
export const getIdentityOutput = outputOf(getIdentity);
