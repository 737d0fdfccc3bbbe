"use client";

import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { ArrowDown, Loader2, Pencil, RefreshCw, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { allowToolAlwaysAction } from "@/app/(app)/chat/[id]/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { postJson } from "@/components/ui/post-json";
import { answerMetadata, conversationTokens } from "@/lib/chat/answer-metadata";
import { approvalsOf } from "@/lib/chat/approvals";
import type { ConversationModels } from "@/lib/chat/chat-models";
import type { ConversationView } from "@/lib/chat/conversation-view";
import { shownBranchSchema, type MessageVersions as Versions } from "@/lib/chat/message-tree";
import {
  type ToolAnswer,
  type ToolProgress,
  type ToolQuestion,
  toolProgressSchema,
  toolQuestionSchema,
} from "@/lib/chat/tool-relay-schema";
import { AnswerFacts } from "./answer-facts";
import { Composer } from "./composer";
import { ConversationHeader } from "./conversation-header";
import { forgetPrefetches } from "./conversation-prefetch";
import { FileAttachmentView } from "./file-uploads";
import { MessageEdit } from "./message-edit";
import { MessageParts } from "./message-parts";
import { MessageVersions } from "./message-versions";
import { ModelPicker } from "./model-picker";
import { startDiscovery } from "./start-discovery";
import { StartProgress, useStartProgress } from "./start-progress";
import { type ApprovalDecision, ToolApproval } from "./tool-approval";
import { ToolQuestionForm } from "./tool-question";
import { useFollowLatest } from "./use-follow-latest";
import { useFreshAfterPrefetch } from "./use-fresh-after-prefetch";

const DENIED = "The user denied this tool call.";

/** What "Copy" copies of a message: its text, without tool calls. */
const textOf = (message: UIMessage) =>
  message.parts
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n\n")
    .trim();

function TurnFailed({ reason, onRetry }: { reason: string; onRetry?: () => void }) {
  return (
    <Alert>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 [overflow-wrap:anywhere]">{reason}</span>
        {onRetry ? (
          <Button variant="secondary" size="sm" onClick={onRetry}>
            <RotateCcw className="h-4 w-4" aria-hidden /> Retry
          </Button>
        ) : null}
      </div>
    </Alert>
  );
}

export function ChatView({
  conversationId,
  title,
  initialMessages,
  initialVersions,
  answering,
  view,
  offline,
  models,
}: {
  conversationId: string;
  title: string;
  initialMessages: UIMessage[];
  /** The other versions of the shown messages that have them (edited questions, regenerated answers). */
  initialVersions: Versions;
  /** Whether an answer was still coming when the page was made: the page re-attaches to it. */
  answering: boolean;
  /** Null until conversation start has discovered the agent's integrations. */
  view: ConversationView | null;
  offline: boolean;
  /** The models the conversation may use; null in offline mode. */
  models: ConversationModels | null;
}) {
  const router = useRouter();
  const [resumeAtStart] = useState(answering);
  const [model, setModel] = useState(models?.chosen);
  // Each turn names the model shown in the header; the server checks the organization allows it.
  const modelRef = useRef(model);
  modelRef.current = model;
  const [startError, setStartError] = useState<string>();
  const [approvalError, setApprovalError] = useState<string>();
  const [versions, setVersions] = useState(initialVersions);
  // The server names the versions again after each turn (the page refreshes when it ends).
  useEffect(() => setVersions(initialVersions), [initialVersions]);
  const [editing, setEditing] = useState<string>();
  const [versionError, setVersionError] = useState<string>();
  const [progress, setProgress] = useState<Record<string, ToolProgress>>({});
  const [questions, setQuestions] = useState<Record<string, ToolQuestion>>({});
  const answer = async (question: ToolQuestion, reply: ToolAnswer) => {
    const outcome = await postJson(
      `/api/chat/${conversationId}/answers/${question.id}`,
      reply,
      new AbortController().signal,
    ).catch(() => ({ ok: false as const, error: "Could not reach the server. Try again." }));
    if (!outcome.ok) return outcome.error;
    setQuestions(({ [question.toolCallId]: _answered, ...rest }) => rest);
    return undefined;
  };
  const {
    messages,
    setMessages,
    sendMessage,
    status,
    stop,
    regenerate,
    resumeStream,
    error,
    addToolApprovalResponse,
  } = useChat({
    id: conversationId,
    messages: initialMessages,
    // A turn runs on the server when the page goes: a page opened while it runs re-attaches to it (as it was
    // when the page was made: a turn this page starts is its own).
    resume: resumeAtStart,
    transport: new DefaultChatTransport({
      api: "/api/chat",
      // The server keeps the history: send only what the user just did.
      prepareSendMessagesRequest: ({ id, messages: all, trigger, messageId, body }) => {
        const last = all.at(-1);
        const chosen = modelRef.current ? { model: modelRef.current } : {};
        // A branch point is named by id only: the server finds it in the stored tree.
        if (trigger === "regenerate-message")
          return { body: { id, regenerate: messageId ?? true, ...chosen } };
        const edit = typeof body?.edit === "string" ? { edit: body.edit } : {};
        if (last?.role === "user") return { body: { id, message: last, ...edit, ...chosen } };
        return { body: { id, approvals: approvalsOf(last), ...chosen } };
      },
    }),
    // Once every pending approval is answered, the tool loop goes on by itself.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // The conversation's discovery and title are stored by the server: show them once the turn ends.
    onFinish: () => {
      forgetPrefetches();
      router.refresh();
    },
    onData: (part) => {
      if (part.type === "data-tool-progress") {
        const parsed = toolProgressSchema.safeParse(part.data);
        if (parsed.success) setProgress((known) => ({ ...known, [parsed.data.toolCallId]: parsed.data }));
      } else if (part.type === "data-tool-question") {
        const parsed = toolQuestionSchema.safeParse(part.data);
        if (parsed.success) setQuestions((known) => ({ ...known, [parsed.data.toolCallId]: parsed.data }));
      }
    },
  });
  const busy = status === "submitted" || status === "streaming";
  useFreshAfterPrefetch({
    conversationId,
    messages,
    initialMessages,
    answering,
    busy,
    adopt: (fresh, running) => {
      setMessages(fresh);
      if (running) void resumeStream();
    },
  });
  // Leaving the page does not stop a turn, so Stop asks the server, which keeps the answer as far as it came; a turn
  // the server has not started yet is stopped here.
  const stopAnswer = useCallback(async () => {
    const answer = await fetch(`/api/chat/${conversationId}/stop`, { method: "POST" })
      .then((response) => (response.ok ? response.json() : undefined))
      .catch(() => undefined);
    if (!(answer as { stopped?: boolean } | undefined)?.stopped) await stop();
  }, [conversationId, stop]);
  const pane = useRef<HTMLElement>(null);
  const { away, jumpToLatest } = useFollowLatest(pane, messages);
  const retry = () => void regenerate();
  const { chips: startChips, onEvent: onStartEvent } = useStartProgress();

  // Escape stops a running answer, unless something nearer (a menu, a dialog) took it.
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog[open]")) return;
      event.preventDefault();
      void stopAnswer();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, stopAnswer]);

  // Conversation start: discover the agent's integrations once, without holding up the page.
  useEffect(() => {
    if (view) return;
    let current = true;
    void startDiscovery(conversationId, false, onStartEvent).then((error) => {
      if (!current) return;
      setStartError(error);
      router.refresh();
    });
    return () => {
      current = false;
    };
  }, [view, conversationId, router, onStartEvent]);

  // Shows another version of a message: the server stores the choice and answers the branch now shown.
  async function showVersion(messageId: string) {
    setVersionError(undefined);
    const outcome = await postJson(
      `/api/chat/${conversationId}/versions`,
      { show: messageId },
      new AbortController().signal,
    ).catch(() => ({ ok: false as const, error: "Could not reach the server. Try again." }));
    const shown = outcome.ok ? shownBranchSchema.safeParse(outcome.body) : undefined;
    if (!shown?.success) {
      setVersionError(outcome.ok ? "The server's answer could not be read. Reload the page." : outcome.error);
      return;
    }
    setMessages(shown.data.messages as UIMessage[]);
    setVersions(shown.data.versions);
  }

  // An edited message is sent as a new version of it: what came after it stays stored as the other branch.
  function sendEdited(message: UIMessage, text: string) {
    setEditing(undefined);
    const index = messages.findIndex((shown) => shown.id === message.id);
    setMessages(messages.slice(0, Math.max(0, index)));
    jumpToLatest();
    void sendMessage(
      {
        parts: [
          { type: "text" as const, text },
          // Its attached resources and files stay attached.
          ...message.parts.filter((part) => part.type === "data-resource" || part.type === "data-file"),
        ],
      },
      { body: { edit: message.id } },
    );
  }

  async function decide(
    message: UIMessage,
    toolName: string,
    approvalId: string,
    decision: ApprovalDecision,
  ) {
    setApprovalError(undefined);
    if (decision === "always") {
      const result = await allowToolAlwaysAction(conversationId, toolName);
      if (result.error) {
        setApprovalError(result.error);
        return;
      }
    }
    // "For this conversation" also answers the same tool's other pending calls in this message.
    const ids =
      decision === "always"
        ? message.parts.flatMap((part) =>
            "approval" in part &&
            part.state === "approval-requested" &&
            part.approval &&
            (("toolName" in part && part.toolName === toolName) || part.type === `tool-${toolName}`)
              ? [part.approval.id]
              : [],
          )
        : [approvalId];
    for (const id of ids) {
      await addToolApprovalResponse({
        id,
        approved: decision !== "deny",
        ...(decision === "deny" ? { reason: DENIED } : {}),
      });
    }
  }

  return (
    // Only the messages scroll: the header above and the composer below stay where they are.
    <div className="flex min-h-0 min-w-0 flex-1 flex-col">
      <div className="max-h-[45dvh] shrink-0 overflow-y-auto border-b px-4 py-3 md:px-6">
        <div className="mx-auto grid w-full max-w-4xl min-w-0 gap-3">
          <ConversationHeader
            conversationId={conversationId}
            title={title}
            view={view}
            model={
              models && model ? (
                <ModelPicker
                  conversationId={conversationId}
                  models={models}
                  value={model}
                  onChange={setModel}
                  disabled={busy}
                />
              ) : null
            }
            tokens={conversationTokens(messages)}
          />
          {!view && !startError ? <StartProgress chips={startChips} /> : null}
          {startError ? <Alert>{startError}</Alert> : null}
          {offline ? (
            <Alert tone="info">
              Offline mode: no language model is configured. Run a tool with{" "}
              <code>/call tool_name {"{…}"}</code>.
            </Alert>
          ) : null}
        </div>
      </div>
      <section
        ref={pane}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus, or a keyboard cannot scroll it
        tabIndex={0}
        aria-label="Conversation"
        className="min-h-0 flex-1 overflow-y-auto px-4 py-4 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset md:px-6"
        data-testid="message-pane"
      >
        <div className="mx-auto grid w-full max-w-4xl min-w-0 grid-cols-[minmax(0,1fr)] gap-4">
          {/* One column that may shrink below its content's width: long content scrolls or wraps inside. */}
          <ol
            className="grid grid-cols-[minmax(0,1fr)] content-start gap-4"
            aria-label="Messages"
            data-testid="messages"
          >
            {messages.map((message, index) => {
              const last = index === messages.length - 1;
              const copyable = message.role === "assistant" && !(busy && last) ? textOf(message) : "";
              const user = message.role === "user";
              const editable = user && !busy && editing === undefined;
              const toolbar = (
                <div
                  className={`flex flex-wrap items-center gap-1 ${user ? "justify-end" : ""}`}
                  data-testid="message-toolbar"
                >
                  {copyable ? <CopyButton compact label="Copy message" text={copyable} /> : null}
                  {editable ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-7 px-2 text-muted-foreground"
                      aria-label="Edit message"
                      title="Edit message"
                      onClick={() => setEditing(message.id)}
                    >
                      <Pencil className="h-4 w-4" aria-hidden />
                    </Button>
                  ) : null}
                  {message.role === "assistant" && !busy ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-7 px-2 text-muted-foreground"
                      aria-label="Regenerate answer"
                      title="Regenerate answer"
                      onClick={() => {
                        setEditing(undefined);
                        void regenerate({ messageId: message.id });
                      }}
                    >
                      <RefreshCw className="h-4 w-4" aria-hidden />
                    </Button>
                  ) : null}
                  {versions[message.id] ? (
                    <MessageVersions
                      ids={versions[message.id] ?? []}
                      current={message.id}
                      disabled={busy}
                      onShow={(id) => void showVersion(id)}
                    />
                  ) : null}
                  {message.role === "assistant" ? <AnswerFacts metadata={answerMetadata(message)} /> : null}
                </div>
              );
              return (
                <li
                  key={message.id}
                  className={
                    !user
                      ? "min-w-0"
                      : editing === message.id
                        ? "min-w-0"
                        : "grid min-w-0 justify-items-end gap-1 justify-self-end"
                  }
                  data-testid={`message-${message.role}`}
                >
                  {editing === message.id ? (
                    <MessageEdit
                      text={textOf(message)}
                      onCancel={() => setEditing(undefined)}
                      onSend={(text) => sendEdited(message, text)}
                    />
                  ) : (
                    <div
                      className={
                        user
                          ? "grid min-w-0 max-w-prose gap-2 rounded-lg bg-primary px-4 py-2 text-primary-foreground"
                          : "grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2"
                      }
                    >
                      <MessageParts
                        message={message}
                        renderFile={(data) => (
                          <FileAttachmentView conversationId={conversationId} data={data} />
                        )}
                        progressOf={(toolCallId) => progress[toolCallId]}
                        renderQuestion={(toolCallId) => {
                          const question = questions[toolCallId];
                          return question ? (
                            <ToolQuestionForm
                              question={question}
                              onAnswer={(reply) => answer(question, reply)}
                            />
                          ) : null;
                        }}
                        renderApproval={(toolName, approvalId) => (
                          <ToolApproval
                            toolName={toolName}
                            tool={view?.tools.find((tool) => tool.name === toolName)}
                            policy={view?.toolApproval}
                            disabled={busy}
                            onDecide={(decision) => void decide(message, toolName, approvalId, decision)}
                          />
                        )}
                        renderTurnError={(reason) => (
                          <TurnFailed reason={reason} onRetry={last && !busy ? retry : undefined} />
                        )}
                      />
                      {user ? null : toolbar}
                    </div>
                  )}
                  {user && editing !== message.id ? toolbar : null}
                </li>
              );
            })}
            {status === "submitted" ? (
              <li className="flex items-center gap-2 text-sm text-muted-foreground">
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Thinking…
              </li>
            ) : null}
          </ol>
          {approvalError ? <Alert>{approvalError}</Alert> : null}
          {versionError ? <Alert>{versionError}</Alert> : null}
          {error ? (
            <TurnFailed
              reason={error.message || "Something went wrong."}
              onRetry={busy ? undefined : retry}
            />
          ) : null}
        </div>
      </section>
      <div className="shrink-0 px-4 pb-3 md:px-6">
        <div className="mx-auto w-full max-w-4xl min-w-0">
          <Composer
            autoFocus={initialMessages.length === 0}
            conversationId={conversationId}
            view={view}
            offline={offline}
            busy={busy}
            textOnlyModel={model && models?.textOnly.includes(model) ? model : undefined}
            canRegenerate={messages.some((m) => m.role === "assistant")}
            latest={
              away ? (
                <Button variant="secondary" size="sm" className="shadow" onClick={jumpToLatest}>
                  <ArrowDown className="h-4 w-4" aria-hidden /> Jump to latest
                </Button>
              ) : null
            }
            onSend={(text, attachments, files) => {
              jumpToLatest();
              void sendMessage({
                parts: [
                  ...(text ? [{ type: "text" as const, text }] : []),
                  ...attachments.map((data) => ({ type: "data-resource" as const, data })),
                  ...files.map((data) => ({ type: "data-file" as const, data })),
                ],
              });
            }}
            onPromptMessages={(inserted) => {
              const next = [...messages, ...inserted];
              setMessages(next);
              // A prompt that ends with the user's words is a question: send it as this turn.
              if (next.at(-1)?.role === "user") void regenerate();
            }}
            onStop={() => void stopAnswer()}
            onRegenerate={() => void regenerate()}
          />
        </div>
      </div>
    </div>
  );
}
