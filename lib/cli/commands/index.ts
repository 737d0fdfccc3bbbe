import type { CliCommand, StandaloneCliCommand } from "../command";
import { apikeyCreate } from "./apikey-create";
import { integrationAdd } from "./integration-add";
import { integrationList } from "./integration-list";
import { integrationTest } from "./integration-test";
import { inviteCreate } from "./invite-create";
import { knowledgeAdd } from "./knowledge-add";
import { knowledgeReindex } from "./knowledge-reindex";
import { mcpConnect } from "./mcp-connect";
import { orgCreate } from "./org-create";
import { userCreate } from "./user-create";

/** Every operator command; each feature adds its own here. */
export const commands: (CliCommand | StandaloneCliCommand)[] = [
  orgCreate,
  userCreate,
  inviteCreate,
  integrationAdd,
  integrationList,
  integrationTest,
  apikeyCreate,
  knowledgeAdd,
  knowledgeReindex,
  mcpConnect,
];
