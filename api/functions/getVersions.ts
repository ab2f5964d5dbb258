import { z } from "zod";
import { PACKAGE_NAME_MAX } from "../versions";
import { defineFunction } from "./definition";
import { Versions } from "./results";

export const getVersions = defineFunction({
  module: "registry",
  name: "getVersions",
  description:
    "A package's version streams and end-of-life data (the API's registry v1 GetPackageVersionMetadata): its supported and end-of-life streams, the latest version, the grace period. Needs `version.list` on some group.",
  args: z.strictObject({
    package: z.string().min(1).max(PACKAGE_NAME_MAX).describe("The package's name, e.g. `nodejs`."),
  }),
  result: { object: Versions },
});
