"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { SamplingAnswer } from "@/lib/mcp/relay/sampling-answer-schema";
import type { RunSampling } from "./run-stream";

/** A message's text, whatever its content holds. */
const textOf = (content: unknown): string => {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) =>
      block && typeof block === "object" && "text" in block && typeof block.text === "string"
        ? block.text
        : JSON.stringify(block),
    )
    .join("\n");
};

/**
 * A server asking, during a run, for a model's reply (sampling): no model answers here, so the person reads the
 * messages and writes the reply themselves, or declines.
 */
export function SamplingRequestForm({
  sampling,
  onAnswer,
}: {
  sampling: RunSampling;
  onAnswer: (answer: SamplingAnswer) => Promise<string | undefined>;
}) {
  const [reply, setReply] = useState("");
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();
  const send = async (answer: SamplingAnswer) => {
    setSending(true);
    setFailure(await onAnswer(answer));
    setSending(false);
  };
  const id = `sampling-${sampling.id}`;
  return (
    <form
      className="grid gap-3 rounded-md border border-primary/40 bg-muted/30 p-3"
      aria-label="The server asks for a model's reply"
      data-testid="sampling-request"
      onSubmit={(event) => {
        event.preventDefault();
        if (reply.trim() === "") return setFailure("Write the reply, or decline.");
        void send({ action: "reply", text: reply });
      }}
    >
      <p className="text-sm font-medium">The server asks for a model&apos;s reply to these messages:</p>
      {sampling.request.systemPrompt ? (
        <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
          System: {sampling.request.systemPrompt}
        </p>
      ) : null}
      <ul className="grid gap-1 text-sm">
        {sampling.request.messages.map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the request's messages have no identity of their own
          <li key={index} className="[overflow-wrap:anywhere]">
            <span className="font-medium">{message.role}:</span> {textOf(message.content)}
          </li>
        ))}
      </ul>
      <label htmlFor={id} className="text-sm font-medium">
        Your reply
      </label>
      <textarea
        id={id}
        value={reply}
        onChange={(event) => setReply(event.target.value)}
        className="min-h-20 w-full rounded-md border bg-card px-3 py-2 text-sm"
      />
      {failure ? <Alert>{failure}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={sending}>
          Send reply
        </Button>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          disabled={sending}
          onClick={() => void send({ action: "decline" })}
        >
          Decline
        </Button>
      </div>
    </form>
  );
}
