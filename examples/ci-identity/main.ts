// Entry for folder use (`pulumi up` in this directory): the admin's program. A CI job's own
// program would be `jobProgram` (see README.md).
import { program } from "./index";

export = program();
