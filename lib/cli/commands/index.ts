import type { CliCommand } from "../command";
import { orgCreate } from "./org-create";
import { userCreate } from "./user-create";

/** Every operator command; each feature adds its own here. */
export const commands: CliCommand[] = [orgCreate, userCreate];
