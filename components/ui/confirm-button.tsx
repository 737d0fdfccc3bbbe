"use client";

import { type ReactNode, useRef } from "react";
import { Button, type ButtonProps } from "./button";

/** A destructive action behind a confirmation dialog (the native <dialog>, so focus and Escape work). */
export function ConfirmButton({
  title,
  description,
  confirmLabel,
  onConfirm,
  disabled,
  trigger,
  children,
}: {
  /** How the button that opens the dialog looks, and its name when it shows an icon only. */
  trigger?: Pick<ButtonProps, "variant" | "size" | "className" | "aria-label">;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        {...trigger}
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {children}
      </Button>
      <dialog
        ref={dialog}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg border bg-card p-5 text-foreground shadow-xl backdrop:bg-black/40"
      >
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="mt-2 text-sm text-muted-foreground">{description}</p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </dialog>
    </>
  );
}
