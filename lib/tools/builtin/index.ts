import type { BuiltinTool } from "../types";
import { knowledgeSearch } from "./knowledge-search";
import { nodeKnowledgeRetriever } from "./node-knowledge-retriever";

export const builtinTools: BuiltinTool[] = [nodeKnowledgeRetriever, knowledgeSearch];
