"use client";

import { useState } from "react";
import { defaultsOf, type FormValues, SchemaForm, toArguments } from "@/components/integrations/schema-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ToolAnswer, ToolQuestion } from "@/lib/chat/tool-relay-schema";

/**
 * A tool's MCP server asking the person something mid-call: its message and a form made from the schema it
 * sent; the person answers, declines, or dismisses it, and the call goes on with that.
 */
export function ToolQuestionForm({
  question,
  onAnswer,
}: {
  question: ToolQuestion;
  /** Sends the answer; resolves with why it could not be sent, if it could not. */
  onAnswer: (answer: ToolAnswer) => Promise<string | undefined>;
}) {
  // The schema's defaults are shown, and sent as long as they are.
  const [values, setValues] = useState<FormValues>(() => defaultsOf(question.requestedSchema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();
  const send = async (answer: ToolAnswer) => {
    setSending(true);
    setFailure(await onAnswer(answer));
    setSending(false);
  };
  return (
    <form
      className="mt-2 grid gap-3 rounded-md border border-primary/40 bg-muted/30 p-3"
      data-testid="tool-question"
      aria-label="The tool asks"
      onSubmit={(event) => {
        event.preventDefault();
        const { args, errors: bad } = toArguments(question.requestedSchema, values);
        setErrors(bad);
        if (Object.keys(bad).length === 0)
          void send({
            action: "accept",
            content: args as Extract<ToolAnswer, { action: "accept" }>["content"],
          });
      }}
    >
      <p className="text-sm font-medium [overflow-wrap:anywhere]">{question.message}</p>
      <SchemaForm
        schema={question.requestedSchema}
        values={values}
        errors={errors}
        onChange={setValues}
        idPrefix={`question-${question.id}`}
        empty="Nothing to fill in: send to go on."
      />
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={sending}>
          Send answer
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
        <Button
          type="button"
          size="sm"
          variant="ghost"
          disabled={sending}
          onClick={() => void send({ action: "cancel" })}
        >
          Dismiss
        </Button>
      </div>
    </form>
  );
}
