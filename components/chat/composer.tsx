"use client";

import type { UIMessage } from "ai";
import { AtSign, FileText, Loader2, Paperclip, RotateCcw, Send, Square, X } from "lucide-react";
import { type ReactNode, useMemo, useRef, useState } from "react";
import { readResourceAction, renderPromptAction } from "@/app/(app)/chat/[id]/actions";
import { Button } from "@/components/ui/button";
import type { ConversationView } from "@/lib/chat/conversation-view";
import type { FileAttachment } from "@/lib/chat/file-attachment-schema";
import type { ResourceAttachment } from "@/lib/chat/resource-attachments";
import { ComposerMenu, type MenuItem } from "./composer-menu";
import { AttachedFiles, useFileUploads } from "./file-uploads";
import { PromptForm } from "./prompt-form";

type Prompt = ConversationView["prompts"][number];
type Resource = ConversationView["resources"][number];
type Menu = { kind: "prompt" | "resource"; query: string; from: "typing" | "button" };
type Attachment = { key: string; name: string } & (
  | { loading: true }
  | { loading: false; data: ResourceAttachment }
);

/** What the user is typing decides the menu: `/name` at the start for prompts, `@name` for resources. */
function menuFor(text: string, caret: number, slashCommands: boolean): Menu | null {
  const before = text.slice(0, caret);
  const slash = /^\/([^\s]*)$/.exec(before);
  if (slash && slashCommands) return { kind: "prompt", query: slash[1] ?? "", from: "typing" };
  const mention = /(^|\s)@([^\s@]*)$/.exec(before);
  if (mention) return { kind: "resource", query: mention[2] ?? "", from: "typing" };
  return null;
}

/** The message box's placeholder, naming the shortcuts this conversation has. */
function askHint(hasPrompts: boolean, hasResources: boolean): string {
  const shortcuts = [hasPrompts ? "/ for prompts" : "", hasResources ? "@ for resources" : ""].filter(
    Boolean,
  );
  return shortcuts.length ? `Ask something… (${shortcuts.join(", ")})` : "Ask something…";
}

const matches = (query: string, ...values: (string | undefined)[]) =>
  values.some((value) => value?.toLowerCase().includes(query.toLowerCase()));

/**
 * The message box: `/` lists the integrations' prompts (slash commands, with a small form for their arguments),
 * `@` or its button attaches a resource, read when attached and sent with the message; the paperclip, a drop or a
 * paste attaches files, uploaded at once and named in the message by id.
 */
export function Composer({
  conversationId,
  view,
  offline,
  busy,
  textOnlyModel,
  canRegenerate,
  onSend,
  onPromptMessages,
  onStop,
  onRegenerate,
  latest,
  autoFocus,
}: {
  /** Focus the message box when the page opens (a new conversation). */
  autoFocus?: boolean;
  conversationId: string;
  view: ConversationView | null;
  offline: boolean;
  busy: boolean;
  /** The chosen model, when the organization marked it as not taking images. */
  textOnlyModel?: string;
  canRegenerate: boolean;
  onSend: (text: string, attachments: ResourceAttachment[], files: FileAttachment[]) => void;
  onPromptMessages: (messages: UIMessage[]) => void;
  onStop: () => void;
  onRegenerate: () => void;
  /** Shown just above the composer: the way back to the newest message, when the reader scrolled away. */
  latest?: ReactNode;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const uploads = useFileUploads(conversationId);
  const [dragging, setDragging] = useState(false);
  const [text, setText] = useState("");
  const [menu, setMenu] = useState<Menu | null>(null);
  const [active, setActive] = useState(0);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [error, setError] = useState<string>();
  const integrationNames = useMemo(
    () => new Map((view?.discovery?.integrations ?? []).map((i) => [i.integrationId, i.name])),
    [view],
  );
  const prompts = view?.prompts ?? [];
  const resources = view?.resources ?? [];

  // Offline, `/call` is a command of its own: listed first so the menu never hides it.
  const promptItems: (Prompt | "call")[] =
    menu?.kind === "prompt"
      ? [
          ...(offline && matches(menu.query, "call") ? ["call" as const] : []),
          ...prompts.filter((p) => matches(menu.query, p.name)),
        ]
      : [];
  const resourceItems =
    menu?.kind === "resource" ? resources.filter((r) => matches(menu.query, r.name, r.uri)) : [];
  const items: MenuItem[] =
    menu?.kind === "prompt"
      ? promptItems.map((p) =>
          p === "call"
            ? { key: "call", label: "/call", hint: 'Run a tool: /call tool_name {"json": "args"}' }
            : {
                key: `${p.integrationId}/${p.name}`,
                label: `/${p.name}`,
                detail: integrationNames.get(p.integrationId),
                hint: p.description,
              },
        )
      : resourceItems.map((r) => ({
          key: `${r.integrationId}/${r.uri}`,
          label: r.name,
          detail: integrationNames.get(r.integrationId),
          hint: r.uri,
        }));

  function update(value: string, caret: number) {
    setText(value);
    const next = menuFor(value, caret, offline || prompts.length > 0);
    setMenu(next);
    if (next?.query !== menu?.query || next?.kind !== menu?.kind) setActive(0);
  }

  async function runPrompt(chosen: Prompt, args: Record<string, string>) {
    const result = await renderPromptAction(conversationId, {
      integrationId: chosen.integrationId,
      name: chosen.name,
      arguments: args,
    });
    if (result.messages) {
      setPrompt(null);
      onPromptMessages(result.messages);
    }
    return result;
  }

  async function attach(resource: Resource) {
    const key = `${resource.integrationId}/${resource.uri}`;
    if (attachments.some((a) => a.key === key)) return;
    setError(undefined);
    setAttachments((all) => [...all, { key, name: resource.name, loading: true }]);
    const result = await readResourceAction(conversationId, {
      integrationId: resource.integrationId,
      uri: resource.uri,
    });
    const data = result.attachment;
    setAttachments((all) =>
      data
        ? all.map((a) => (a.key === key ? { key, name: data.name, loading: false, data } : a))
        : all.filter((a) => a.key !== key),
    );
    if (result.error) setError(`Could not attach ${resource.name}: ${result.error}`);
  }

  function pick(index: number) {
    if (menu?.kind === "prompt") {
      const chosen = promptItems[index];
      if (!chosen) return;
      setMenu(null);
      if (chosen === "call") {
        setText("/call ");
        return;
      }
      setText("");
      if (chosen.arguments.length > 0) setPrompt(chosen);
      else
        void runPrompt(chosen, {}).then((result) => {
          if (result.error) setError(result.error);
        });
      return;
    }
    const chosen = resourceItems[index];
    if (!chosen) return;
    if (menu?.from === "typing") {
      const caret = textarea.current?.selectionStart ?? text.length;
      const before = text.slice(0, caret).replace(/@[^\s@]*$/, "");
      setText(before + text.slice(caret));
    }
    setMenu(null);
    void attach(chosen);
    textarea.current?.focus();
  }

  const ready = attachments.filter((a): a is Extract<Attachment, { loading: false }> => !a.loading);
  const loading = attachments.some((a) => a.loading) || uploads.uploading;
  const nothingToSend = !text.trim() && ready.length === 0 && uploads.ready.length === 0;

  function submit() {
    const value = text.trim();
    if (nothingToSend || busy || loading) return;
    onSend(
      value,
      ready.map((a) => a.data),
      uploads.ready,
    );
    setText("");
    setAttachments([]);
    uploads.reset();
    setMenu(null);
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut; the paperclip does the same
    <div
      className={`relative grid gap-2 border-t bg-background pt-3 ${dragging ? "rounded-md outline-2 outline-dashed outline-primary" : ""}`}
      data-testid="composer"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        uploads.add(event.dataTransfer.files);
      }}
    >
      {latest ? <div className="absolute -top-12 left-1/2 -translate-x-1/2">{latest}</div> : null}
      {prompt ? (
        <PromptForm
          prompt={prompt}
          onSubmit={(args) => runPrompt(prompt, args)}
          onCancel={() => setPrompt(null)}
        />
      ) : null}
      {error ? (
        <p className="text-xs text-destructive" role="alert">
          {error}
        </p>
      ) : null}
      {uploads.errors.length > 0 ? (
        <div
          className="flex items-start gap-2 text-xs text-destructive"
          role="alert"
          data-testid="file-error"
        >
          <div className="grid gap-0.5">
            {uploads.errors.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
          <button
            type="button"
            aria-label="Dismiss"
            className="rounded-full p-0.5 hover:bg-muted"
            onClick={uploads.clearErrors}
          >
            <X className="h-3 w-3" />
          </button>
        </div>
      ) : null}
      <AttachedFiles uploads={uploads.uploads} onRemove={uploads.remove} />
      {textOnlyModel && uploads.ready.some((file) => file.mediaType.startsWith("image/")) ? (
        <p className="text-xs text-warning-text" role="status" data-testid="image-warning">
          {textOnlyModel} cannot see images: it will only be told an image was attached. Choose another model
          to have it look at the image.
        </p>
      ) : null}
      {attachments.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Attached resources">
          {attachments.map((a) => (
            <li
              key={a.key}
              className="flex items-center gap-1.5 rounded-full border bg-muted px-2.5 py-0.5 text-xs"
              data-testid="attachment"
            >
              {a.loading ? (
                <Loader2 className="h-3 w-3 animate-spin" aria-hidden />
              ) : (
                <FileText className="h-3 w-3" aria-hidden />
              )}
              {a.name}
              {!a.loading && a.data.truncated ? <span className="text-muted-foreground">(cut)</span> : null}
              <button
                type="button"
                aria-label={`Remove ${a.name}`}
                className="rounded-full p-0.5 hover:bg-background"
                onClick={() => setAttachments((all) => all.filter((other) => other.key !== a.key))}
              >
                <X className="h-3 w-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="relative flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {menu ? (
          <ComposerMenu
            id="composer-menu"
            label={menu.kind === "prompt" ? "Prompts" : "Attach a resource"}
            items={items}
            activeIndex={active}
            onPick={pick}
            empty={menu.kind === "prompt" ? "No prompt matches." : "No resource matches."}
          />
        ) : null}
        {resources.length > 0 ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Attach a resource"
            aria-expanded={menu?.kind === "resource"}
            onClick={() => {
              setMenu(menu?.kind === "resource" ? null : { kind: "resource", query: "", from: "button" });
              setActive(0);
              textarea.current?.focus();
            }}
          >
            <AtSign className="h-4 w-4" />
          </Button>
        ) : null}
        <Button
          variant="ghost"
          size="icon"
          aria-label="Attach files"
          onClick={() => filePicker.current?.click()}
        >
          <Paperclip className="h-4 w-4" />
        </Button>
        <input
          ref={filePicker}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/*,.md,.csv,.json,.txt,.log,.yaml,.yml,.xml,.ts,.js,.py"
          onChange={(event) => {
            if (event.target.files) uploads.add(event.target.files);
            event.target.value = "";
          }}
        />
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <textarea
          id="chat-input"
          ref={textarea}
          // biome-ignore lint/a11y/noAutofocus: a new conversation has nothing to do but type its first message
          autoFocus={autoFocus}
          value={text}
          role="combobox"
          aria-expanded={menu !== null && items.length > 0}
          aria-controls="composer-menu"
          aria-autocomplete="list"
          aria-activedescendant={menu && items.length > 0 ? `composer-menu-${active}` : undefined}
          onChange={(event) => update(event.target.value, event.target.selectionStart)}
          onPaste={(event) => {
            // A pasted image or file is attached; pasted text stays text.
            if (event.clipboardData.files.length === 0) return;
            event.preventDefault();
            uploads.add(event.clipboardData.files);
          }}
          onKeyDown={(event) => {
            if (menu && items.length > 0) {
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                event.preventDefault();
                const step = event.key === "ArrowDown" ? 1 : -1;
                setActive((index) => (index + step + items.length) % items.length);
                return;
              }
              if (event.key === "Enter" || event.key === "Tab") {
                event.preventDefault();
                pick(active);
                return;
              }
            }
            if (event.key === "Escape" && menu) {
              event.preventDefault();
              setMenu(null);
              return;
            }
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              submit();
            }
          }}
          rows={2}
          placeholder={
            offline
              ? '/call node_knowledge_retriever {"node_names": ["…"]}'
              : askHint(prompts.length > 0, resources.length > 0)
          }
          className="min-h-12 flex-1 resize-y rounded-md border bg-card px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
        {busy ? (
          <Button variant="secondary" onClick={onStop}>
            <Square className="h-4 w-4" aria-hidden /> <span className="sr-only sm:not-sr-only">Stop</span>
          </Button>
        ) : (
          <>
            {canRegenerate ? (
              <Button
                variant="ghost"
                size="icon"
                aria-label="Regenerate the last answer"
                onClick={onRegenerate}
              >
                <RotateCcw className="h-4 w-4" />
              </Button>
            ) : null}
            <Button type="submit" disabled={nothingToSend || loading}>
              {/* On a phone the icon alone leaves the message its width. */}
              <Send className="h-4 w-4" aria-hidden /> <span className="sr-only sm:not-sr-only">Send</span>
            </Button>
          </>
        )}
      </form>
    </div>
  );
}
