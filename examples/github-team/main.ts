// Entry for folder use (`pulumi up` in this directory).
import { program } from "./index";

export = program();
