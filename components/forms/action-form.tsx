"use client";

import {
  type ComponentProps,
  createContext,
  Fragment,
  type SubmitEvent,
  useContext,
  useEffect,
  useRef,
  useState,
  useTransition,
} from "react";

/** Whether the enclosing ActionForm's action is running (SubmitButton reads it beside useFormStatus). */
const ActionFormPending = createContext(false);

export function useActionFormPending(): boolean {
  return useContext(ActionFormPending);
}

type ActionFormProps = Omit<ComponentProps<"form">, "action"> & {
  /** The form action (a useActionState dispatch), given the form's data with its submitter's name and value. */
  action: (form: FormData) => void;
  /** What the action last answered: an answer without `error` is a success, after which the form starts afresh. */
  state: { error?: string };
};

/**
 * A form running a server action without React's reset after every action: a refused form keeps each field as
 * the person left it, selects, radios, checkboxes, dependent fields and controlled state included (React resets
 * the DOM to its defaults while controlled state stays, so a select could show one choice and send another).
 * After a success its fields start afresh, remounted from their defaults.
 */
export function ActionForm({ action, state, children, onSubmit, ref, ...props }: ActionFormProps) {
  const [pending, startTransition] = useTransition();
  const [generation, setGeneration] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const answered = useRef(state);
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (state === answered.current) return;
    answered.current = state;
    if (state.error) return;
    const active = document.activeElement;
    focused.current = active && form.current?.contains(active) ? selectorOf(active) : null;
    setGeneration((count) => count + 1);
  }, [state]);
  // Focus stays where it was across the fresh start, unless the page moved it on already.
  useEffect(() => {
    if (generation === 0 || !focused.current) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    form.current?.querySelector<HTMLElement>(focused.current)?.focus();
  }, [generation]);

  function submit(event: SubmitEvent<HTMLFormElement>) {
    onSubmit?.(event);
    event.preventDefault();
    const data = new FormData(event.currentTarget, event.submitter);
    startTransition(() => action(data));
  }

  return (
    <ActionFormPending.Provider value={pending}>
      <form
        {...props}
        ref={(node) => {
          form.current = node;
          if (typeof ref === "function") ref(node);
          else if (ref) ref.current = node;
        }}
        onSubmit={submit}
      >
        <Fragment key={generation}>{children}</Fragment>
      </form>
    </ActionFormPending.Provider>
  );
}

/** How to find the focused element again once the form is remounted: its id, else the submit button. */
function selectorOf(element: Element): string | null {
  if (element.id) return `#${CSS.escape(element.id)}`;
  return element.getAttribute("type") === "submit" ? '[type="submit"]' : null;
}
