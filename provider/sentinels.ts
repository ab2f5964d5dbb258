/**
 * Pulumi's wire sentinels, the values `@pulumi/pulumi/runtime/rpc` defines. Written out here
 * rather than imported: that module loads much of the Node runtime (and `@pulumi/pulumi/runtime`
 * all of it, TypeScript and npm's arborist included), which costs the resource plugin most of a
 * second at every start and which it never uses. test/plugin/startup.test.ts checks they agree.
 */

/** The value the engine sends for a property that is not known yet (during preview). */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The key that marks an object as one of Pulumi's special values. */
export const specialSigKey = "4dabf18193072939515e22adb298388d";
/** The `specialSigKey` value of a secret. */
export const specialSecretSig = "1b47061264138c4ac30d75fd1eb44270";
