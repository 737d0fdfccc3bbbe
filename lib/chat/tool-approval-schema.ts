import { z } from "zod";

/** Which of an agent's tool calls wait for the user: every one, those of tools not marked read-only, or none. */
export const toolApprovalPolicies = ["always", "risky", "never"] as const;

export type ToolApprovalPolicy = (typeof toolApprovalPolicies)[number];

export const toolApprovalSchema = z.enum(toolApprovalPolicies, {
  error: "Choose when the agent asks before running tools.",
});

/** New agents ask before tools that may change something, and run read-only ones straight away. */
export const DEFAULT_TOOL_APPROVAL: ToolApprovalPolicy = "risky";

/** How the agents list and a conversation's header say what an agent asks about; nothing when it never asks. */
export const toolApprovalSummary: Record<ToolApprovalPolicy, string | null> = {
  always: "asks before every tool",
  risky: "asks before tools that may change things",
  never: null,
};

/** The agent form's choices, each with the one line that says what it does. */
export const toolApprovalChoices: { value: ToolApprovalPolicy; label: string; explanation: string }[] = [
  {
    value: "always",
    label: "Ask before every tool",
    explanation: "Every call waits for the user to allow it, once or for the conversation, or to deny it.",
  },
  {
    value: "risky",
    label: "Ask before tools that may change things",
    explanation:
      "Tools their server marks read-only run straight away; any other tool, or one without annotations, asks.",
  },
  {
    value: "never",
    label: "Never ask",
    explanation: "Every tool runs as soon as the model calls it.",
  },
];
