import { z } from "zod";
import { repos, readShapeOf } from "./kinds";
import { once } from "./once";

/**
 * A repo as the client reads it and the server stores it: its definition's read shape, with its
 * times optional (the registry's readers take a repo whose API leaves them out; the kind's
 * outputs still require them, through its own read shape), and irv-server's `visibility`. Read
 * once its `null`s are dropped, as the client does with every response (`withoutNulls`). Built on
 * its first call: the plugin's client reads a repo only in operations on repos.
 */
export const repoItem = once(() =>
  readShapeOf(repos)
    .partial({ createTime: true, updateTime: true })
    // irv-server only: `public` repos (and their tags) are readable without a token.
    .extend({ visibility: z.string().optional() }),
);
