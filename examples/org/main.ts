// Entry for folder use: the root Pulumi.yaml runs the compiled form of this file, and the
// program's result becomes the stack outputs.
import { program } from "./index";

export = program();
